package io.corpora.store.qdrant;

import io.corpora.spi.config.InvalidConfigException;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.TrustManagerFactory;

/** Builds the gRPC client of one store: plaintext or TLS (optionally with its own trust store), the API key, the deadline. */
final class QdrantConnection {

    /** Payloads of a page of points can be large; gRPC's default of 4 MiB is too small for 1024 points with long texts. */
    private static final int MAX_INBOUND_MESSAGE_BYTES = 64 * 1024 * 1024;

    /**
     * The client logs every failed call at SEVERE with its stack trace, and the store throws it to the caller with a message
     * naming the call: kept, each outage would be logged twice per call. Held here so the level is not lost with the logger.
     */
    private static final Logger CLIENT_FAILURES = Logger.getLogger("io.qdrant.client.QdrantClient");

    static {
        CLIENT_FAILURES.setLevel(Level.OFF);
    }

    private QdrantConnection() {}

    static QdrantClient open(QdrantSettings settings, Logger logger) {
        NettyChannelBuilder channel = NettyChannelBuilder.forAddress(settings.host(), settings.port())
                .maxInboundMessageSize(MAX_INBOUND_MESSAGE_BYTES);
        if (!settings.tls()) {
            channel.usePlaintext();
            if (settings.apiKey().isPresent()) {
                logger.warning("Qdrant store at " + settings.endpoint() + ": the API key is sent over plain http; use an https URL");
            }
        } else if (settings.trustStore().isPresent()) {
            channel.sslContext(sslContext(settings.trustStore().get(), settings.trustStorePassword().orElse("")));
        } else {
            channel.useTransportSecurity();
        }
        ManagedChannel built = channel.build();
        // The version check is left to checkHealth: a client must not call the server while the store is being created.
        QdrantGrpcClient.Builder grpc = QdrantGrpcClient.newBuilder(built, true, false).withTimeout(settings.timeout());
        settings.apiKey().ifPresent(grpc::withApiKey);
        return new QdrantClient(grpc.build());
    }

    private static io.grpc.netty.shaded.io.netty.handler.ssl.SslContext sslContext(Path trustStore, String password) {
        try {
            KeyStore store = KeyStore.getInstance(trustStore.toFile(), password.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            return GrpcSslContexts.forClient().trustManager(trust).build();
        } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
            // A missing or unreadable file, a wrong password, an SSL context that cannot be built: the operator's to fix.
            throw new InvalidConfigException(QdrantVectorStoreProvider.NAME,
                    List.of(QdrantOptions.TRUST_STORE + " '" + trustStore + "' cannot be read: " + e.getMessage()));
        }
    }
}
