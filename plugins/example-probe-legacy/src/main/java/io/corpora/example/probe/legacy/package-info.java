/**
 * An example reranker plugin on commons-lang3 3.12: with its current twin it proves that each plugin has its own class
 * loader.
 */
package io.corpora.example.probe.legacy;
