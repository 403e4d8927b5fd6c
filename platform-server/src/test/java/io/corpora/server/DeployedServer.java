package io.corpora.server;

import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An integration test against the server as deployed: Arquillian deploys the WAR the build produced, unchanged
 * ({@link Deployments#corporaWar()}), into the build's Liberty, and the test calls it from outside as any client does.
 * Every {@code *IT} of this module extends it, so the deployment is declared once.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
public abstract class DeployedServer {

    @Deployment(testable = false)
    public static WebArchive corpora() {
        return Deployments.corporaWar();
    }
}
