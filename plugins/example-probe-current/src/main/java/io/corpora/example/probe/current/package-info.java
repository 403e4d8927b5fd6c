/**
 * An example reranker plugin on commons-lang3 3.18: with its legacy twin it proves that each plugin has its own class
 * loader.
 */
package io.corpora.example.probe.current;
