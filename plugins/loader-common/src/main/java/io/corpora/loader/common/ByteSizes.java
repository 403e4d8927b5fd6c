package io.corpora.loader.common;

import java.util.Locale;

/** Human-readable byte counts for error messages ("12.4 MB"), so a user can compare a file with a limit. */
public final class ByteSizes {

    private ByteSizes() {}

    public static String format(long bytes) {
        if (bytes < 1024) {
            return bytes + " bytes";
        }
        double value = bytes;
        String[] units = {"KB", "MB", "GB", "TB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
