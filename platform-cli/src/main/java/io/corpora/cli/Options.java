package io.corpora.cli;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code --name value} and {@code --flag} arguments, checked against what the command declares: an unknown option,
 * a missing value or a value of the wrong type is a {@link UsageException} naming the option.
 */
public final class Options {

    private final Map<String, String> values;

    private Options(Map<String, String> values) {
        this.values = values;
    }

    /**
     * @param valued options that take a value
     * @param flags  options that take none
     */
    public static Options parse(List<String> args, Set<String> valued, Set<String> flags) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument '" + arg + "'");
            }
            String name = arg.substring(2);
            String inline = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                inline = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name)) {
                if (inline != null) {
                    throw new UsageException("option --" + name + " takes no value");
                }
                values.put(name, "true");
            } else if (valued.contains(name)) {
                String value = inline;
                if (value == null) {
                    if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                        throw new UsageException("option --" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                if (values.put(name, value) != null) {
                    throw new UsageException("option --" + name + " given twice");
                }
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
        return new Options(new HashMap<>(values));
    }

    public boolean flag(String name) {
        return values.containsKey(name);
    }

    public Optional<String> string(String name) {
        return Optional.ofNullable(values.get(name));
    }

    public String string(String name, String fallback) {
        return values.getOrDefault(name, fallback);
    }

    public String requireString(String name) {
        return string(name).orElseThrow(() -> new UsageException("option --" + name + " is required"));
    }

    public Path path(String name, Path fallback) {
        return string(name).map(Path::of).orElse(fallback);
    }

    public String choice(String name, String fallback, List<String> allowed) {
        String value = string(name, fallback);
        if (!allowed.contains(value)) {
            throw new UsageException("option --" + name + " must be one of " + allowed + ", got '" + value + "'");
        }
        return value;
    }

    public int integer(String name, int fallback, int min, int max) {
        Optional<String> value = string(name);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.get());
            if (parsed < min || parsed > max) {
                throw new UsageException("option --" + name + " must be " + min + ".." + max + ", got " + parsed);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new UsageException("option --" + name + " must be an integer, got '" + value.get() + "'");
        }
    }

    public Optional<Double> decimal(String name) {
        return string(name).map(v -> {
            try {
                double d = Double.parseDouble(v);
                if (!Double.isFinite(d)) {
                    throw new NumberFormatException();
                }
                return d;
            } catch (NumberFormatException e) {
                throw new UsageException("option --" + name + " must be a number, got '" + v + "'");
            }
        });
    }
}
