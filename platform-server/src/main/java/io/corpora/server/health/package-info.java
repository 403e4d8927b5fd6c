/** MicroProfile Health checks: plugins loaded, dependencies reachable, development mode reported. */
package io.corpora.server.health;
