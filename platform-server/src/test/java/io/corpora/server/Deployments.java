package io.corpora.server;

import java.io.File;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.importer.ZipImporter;
import org.jboss.shrinkwrap.api.spec.WebArchive;

/** The deployment every integration test uses: the real WAR the build produced, unchanged. */
public final class Deployments {

    private Deployments() {}

    public static WebArchive corporaWar() {
        File war = new File(System.getProperty("corpora.war", "target/corpora.war"));
        return ShrinkWrap.create(ZipImporter.class, "corpora.war").importFrom(war).as(WebArchive.class);
    }
}
