/** The {{name}} {{kind}} plugin for Corpora. */
package {{package}};
