package io.corpora.tenancy;

/**
 * Per-key token buckets refilled continuously at {@code perMinute} tokens a minute, holding at most one minute's worth.
 * {@link RateLimiter} keeps them in process memory (one server); the server's control-plane implementation keeps them
 * in the database every server shares, so a tenant gets its rate once behind N servers, not N times.
 */
public interface RateLimits {

    /** The outcome of one attempt: allowed, or refused with the seconds until a token is available. */
    record Decision(boolean allowed, long retryAfterSeconds) {
        private static final Decision ALLOWED = new Decision(true, 0);

        /** Refused while the bucket holds {@code tokens} (< 1) and refills at {@code perMinute}. */
        public static Decision refused(double tokens, int perMinute) {
            double millisPerToken = 60_000.0 / perMinute;
            long waitMillis = (long) Math.ceil((1 - tokens) * millisPerToken);
            return new Decision(false, Math.max(1, (waitMillis + 999) / 1000));
        }

        public static Decision allow() {
            return ALLOWED;
        }
    }

    /** Takes a token for {@code key}; {@code perMinute <= 0} means unlimited. */
    Decision acquire(String key, int perMinute);
}
