package io.corpora.engine.embed;

import java.util.ArrayList;
import java.util.List;

/** Open addressing from a key's first 8 bytes to record numbers; several records may share a prefix (a lookup compares the whole key). */
final class KeyPrefixIndex {

    private long[] prefixes = new long[1024];
    private int[] records = new int[1024]; // record number + 1; 0 is an empty slot
    private int size;

    void put(long prefix, int record) {
        if (2 * (size + 1) > records.length) {
            grow();
        }
        int slot = slot(prefix, records.length);
        while (records[slot] != 0) {
            slot = (slot + 1) & (records.length - 1);
        }
        prefixes[slot] = prefix;
        records[slot] = record + 1;
        size++;
    }

    /** Record numbers whose key starts with {@code prefix}, in insertion order of their slots' probe. */
    List<Integer> candidates(long prefix) {
        List<Integer> found = new ArrayList<>(1);
        for (int slot = slot(prefix, records.length); records[slot] != 0; slot = (slot + 1) & (records.length - 1)) {
            if (prefixes[slot] == prefix) {
                found.add(records[slot] - 1);
            }
        }
        return found;
    }

    private void grow() {
        long[] oldPrefixes = prefixes;
        int[] oldRecords = records;
        prefixes = new long[oldRecords.length * 2];
        records = new int[oldRecords.length * 2];
        size = 0;
        for (int slot = 0; slot < oldRecords.length; slot++) {
            if (oldRecords[slot] != 0) {
                put(oldPrefixes[slot], oldRecords[slot] - 1);
            }
        }
    }

    private static int slot(long prefix, int capacity) {
        long mixed = prefix * 0x9E3779B97F4A7C15L; // the prefix is a hash already; spread it over the low bits anyway
        return (int) (mixed >>> 33) & (capacity - 1);
    }
}
