/**
 * Vector stores: namespaced upsert, delete, listing and vector/keyword search of chunks, with the capabilities a store
 * declares.
 */
package io.corpora.spi.store;
