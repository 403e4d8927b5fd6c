/** PDF through Apache PDFBox: one section per page, with page, byte, decoded-stream and time limits. */
package io.corpora.loader.pdf;
