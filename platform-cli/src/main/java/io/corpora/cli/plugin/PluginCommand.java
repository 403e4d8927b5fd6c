package io.corpora.cli.plugin;

import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.plugin.loader.PluginKind;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** {@code corpora plugin new <kind> <name>}: writes a buildable plugin project (see "Write a plugin in 15 minutes"). */
public final class PluginCommand implements Command {

    @Override
    public String name() {
        return "plugin";
    }

    @Override
    public String summary() {
        return "generate a plugin project of any kind (plugin new <kind> <name>)";
    }

    @Override
    public String usage() {
        return """
                usage: corpora plugin new <kind> <name> [--package P] [--group G] [--dir D]
                  <kind>        one of %s
                  <name>        the provider name tenants configure, e.g. acme-embedder (also the artifact id)
                  --package P   Java package of the generated classes; default com.example.<name without hyphens>
                  --group G     Maven group id; default com.example
                  --dir D       parent folder of the new project; default the current folder
                Writes <dir>/<name>/ (refused if it exists): pom.xml, a provider, its implementation, the service file,
                a README and a test that runs the test kit's contract suite of that kind. Then: cd <name> && mvn package."""
                .formatted(String.join(", ", labels()));
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        if (args.size() < 3 || !args.get(0).equals("new")) {
            throw new UsageException("expected: plugin new <kind> <name>");
        }
        PluginKind kind = Stream.of(PluginKind.values()).filter(k -> k.label().equals(args.get(1))).findFirst()
                .orElseThrow(() -> new UsageException("unknown kind '" + args.get(1) + "'; one of " + String.join(", ", labels())));
        String pluginName = args.get(2);
        Options options = Options.parse(args.subList(3, args.size()), Set.of("package", "group", "dir"), Set.of());
        PluginTemplate template;
        try {
            template = new PluginTemplate(kind, pluginName,
                    options.string("package", PluginTemplate.defaultPackage(pluginName)), options.string("group", "com.example"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Path project = options.path("dir", Path.of("")).toAbsolutePath().resolve(pluginName);
        if (Files.exists(project)) {
            throw new UsageException(project + " already exists; choose another --dir or name");
        }
        Map<String, String> files = template.files();
        for (Map.Entry<String, String> file : files.entrySet()) {
            Path target = project.resolve(file.getKey());
            Files.createDirectories(target.getParent());
            Files.writeString(target, file.getValue());
        }
        out.println("corpora: wrote a " + kind.label() + " plugin '" + pluginName + "' to " + project + " (" + files.size() + " files)");
        out.println("  next: cd " + project + " && mvn package   (runs the test kit's " + kind.label() + " contract suite)");
        out.println("  then: copy target/" + pluginName + "-0.1.0-SNAPSHOT.jar (or target/plugin/" + pluginName
                + "/ when it has libraries) into the server's plugins directory and restart");
        return 0;
    }

    private static List<String> labels() {
        return Stream.of(PluginKind.values()).map(PluginKind::label).toList();
    }
}
