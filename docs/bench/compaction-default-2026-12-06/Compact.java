import java.nio.file.*; import java.sql.*;
public class Compact {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]); Path file = dir.resolve("control-plane.mv.db");
        String url = "jdbc:h2:file:" + dir.resolve("control-plane") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
        long before = Files.size(file);
        long t0 = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, "corpora", "")) {
            long opened = System.nanoTime();
            try (ResultSet r = c.createStatement().executeQuery("select count(*) from documents")) { r.next(); System.out.println("documents " + r.getLong(1)); }
            long t1 = System.nanoTime();
            c.createStatement().execute("SHUTDOWN COMPACT");
            long t2 = System.nanoTime();
            System.out.printf("open %.0f ms; SHUTDOWN COMPACT %.0f ms; %.1f MB -> %.1f MB%n", (opened - t0) / 1e6, (t2 - t1) / 1e6, before / 1e6, Files.size(file) / 1e6);
        }
    }
}
