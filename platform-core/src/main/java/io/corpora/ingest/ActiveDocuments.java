package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.Tenant;
import io.corpora.spi.Namespace;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** The documents of a namespace that have an active version, read from the registry a page at a time (what a corpus migration moves). */
final class ActiveDocuments {

    private static final int PAGE = 200;

    private ActiveDocuments() {}

    static Iterable<DocumentRecord> of(DocumentRegistry registry, Namespace namespace) {
        return () -> iterator(registry, namespace);
    }

    /** How many documents of all the tenant's namespaces have an active version. */
    static int count(DocumentRegistry registry, Tenant tenant) {
        int documents = 0;
        for (Namespace namespace : tenant.namespaces()) {
            for (Iterator<DocumentRecord> it = iterator(registry, namespace); it.hasNext(); it.next()) {
                documents++;
            }
        }
        return documents;
    }

    private static Iterator<DocumentRecord> iterator(DocumentRegistry registry, Namespace namespace) {
        return new Iterator<>() {
            private Iterator<DocumentRecord> page = Collections.emptyIterator();
            private String after;
            private boolean last;
            private DocumentRecord next;

            @Override
            public boolean hasNext() {
                while (next == null) {
                    if (page.hasNext()) {
                        DocumentRecord candidate = page.next();
                        next = candidate.activeVersion() > 0 ? candidate : null;
                    } else if (last) {
                        return false;
                    } else {
                        List<DocumentRecord> records = registry.list(namespace, after, PAGE);
                        last = records.size() < PAGE;
                        after = records.isEmpty() ? after : records.get(records.size() - 1).documentId();
                        page = records.iterator();
                    }
                }
                return true;
            }

            @Override
            public DocumentRecord next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                DocumentRecord current = next;
                next = null;
                return current;
            }
        };
    }
}
