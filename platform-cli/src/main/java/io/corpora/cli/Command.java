package io.corpora.cli;

import java.io.PrintStream;
import java.util.List;

/** One {@code corpora} subcommand. Add a command by implementing this and listing it in {@link CorporaCli#COMMANDS}. */
public interface Command {

    /** The word after {@code corpora}, e.g. {@code eval}. */
    String name();

    /** One line for {@code corpora help}. */
    String summary();

    /** Full usage text, printed on {@code --help} and after a usage error. */
    String usage();

    /**
     * Runs the command.
     *
     * @return the process exit code (0 success)
     * @throws UsageException for bad arguments (printed with the usage, exit code 2)
     */
    int run(List<String> args, PrintStream out, PrintStream err) throws Exception;
}
