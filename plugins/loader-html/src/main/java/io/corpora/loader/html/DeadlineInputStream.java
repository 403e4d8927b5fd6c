package io.corpora.loader.html;

import io.corpora.loader.common.Deadline;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Feeds jsoup in small reads and checks the deadline before each one. jsoup parses as it reads, so this bounds
 * the time of a pathological parse (a few megabytes of nested tags can take minutes) to the deadline plus one
 * small read's worth of work, without a second thread.
 */
final class DeadlineInputStream extends FilterInputStream {

    private static final int MAX_READ = 8 * 1024;

    private final Deadline deadline;

    DeadlineInputStream(InputStream in, Deadline deadline) {
        super(in);
        this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
        deadline.check("parsing the HTML");
        return super.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        deadline.check("parsing the HTML");
        return super.read(buffer, offset, Math.min(length, MAX_READ));
    }
}
