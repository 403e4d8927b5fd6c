package io.corpora.store.lucene;

import java.util.concurrent.atomic.AtomicReference;

/**
 * One namespace at a time merges while idle ({@code merge.idleSegments}), across every Lucene store of this JVM. Each
 * index merges on its own writer's scheduler, so namespaces whose writes pause together (a bulk load across tenants
 * ending, or a server opening many) would each rewrite their index on a thread of their own, together taking every core
 * beside the requests of the tenants being served. The turn is held while its namespace still has merges running.
 */
final class IdleMergeTurn {

    private static final AtomicReference<NamespaceIndex> HOLDER = new AtomicReference<>();

    private IdleMergeTurn() {}

    /** Takes the turn for {@code index} unless another namespace's merges are still running. */
    static boolean claim(NamespaceIndex index) {
        while (true) {
            NamespaceIndex holder = HOLDER.get();
            if (holder != null && holder != index && holder.merging()) {
                return false;
            }
            if (HOLDER.compareAndSet(holder, index)) {
                return true;
            }
        }
    }

    /** Gives the turn back when {@code index} started no merge with it. */
    static void release(NamespaceIndex index) {
        HOLDER.compareAndSet(index, null);
    }
}
