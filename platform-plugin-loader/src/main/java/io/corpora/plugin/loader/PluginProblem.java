package io.corpora.plugin.loader;

import java.nio.file.Path;

/** A plugin, jar or provider that did not load, and why. Loading goes on for the others. */
public record PluginProblem(String plugin, Path location, String message) {
    @Override
    public String toString() {
        return "plugin '" + plugin + "' (" + location + "): " + message;
    }
}
