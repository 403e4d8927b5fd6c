package io.corpora.cli;

import io.corpora.cli.bench.BenchCommand;
import io.corpora.cli.eval.EvalCommand;
import io.corpora.cli.ingest.IngestCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code corpora} command line: {@code corpora <command> [options]}. Each command is one {@link Command} class;
 * to add one, append it to {@link #COMMANDS}.
 */
public final class CorporaCli {

    /** Every command, in the order {@code corpora help} lists them. */
    static final List<Command> COMMANDS = List.of(new BenchCommand(), new EvalCommand(), new IngestCommand(), new TokenCommand());

    private final Map<String, Command> commands = new LinkedHashMap<>();

    public CorporaCli(List<Command> commands) {
        for (Command command : commands) {
            if (this.commands.put(command.name(), command) != null) {
                throw new IllegalArgumentException("two commands named '" + command.name() + "'");
            }
        }
    }

    public static void main(String[] args) {
        int code = new CorporaCli(COMMANDS).run(Arrays.asList(args), System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /** Runs one command line; returns the exit code (0 ok, 1 failure, 2 usage error). */
    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.get(0).equals("help") || args.get(0).equals("--help") || args.get(0).equals("-h")) {
            out.println(help());
            return args.isEmpty() ? 2 : 0;
        }
        Command command = commands.get(args.get(0));
        if (command == null) {
            err.println("corpora: unknown command '" + args.get(0) + "'");
            err.println(help());
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(command.usage());
            return 0;
        }
        try {
            return command.run(rest, out, err);
        } catch (UsageException e) {
            err.println("corpora " + command.name() + ": " + e.getMessage());
            err.println(command.usage());
            return 2;
        } catch (Exception e) {
            err.println("corpora " + command.name() + " failed: " + e);
            for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                err.println("  caused by: " + cause);
            }
            return 1;
        }
    }

    String help() {
        StringBuilder b = new StringBuilder("usage: corpora <command> [options]   (corpora <command> --help for its options)\n\ncommands:\n");
        commands.values().forEach(c -> b.append(String.format("  %-8s %s%n", c.name(), c.summary())));
        return b.toString().stripTrailing();
    }
}
