import java.nio.file.*; import java.sql.*;
public class Count {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        String url = "jdbc:h2:file:" + dir.resolve("control-plane") + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";
        try (Connection c = DriverManager.getConnection(url, "corpora", "");
             ResultSet r = c.createStatement().executeQuery("select count(*), count(distinct document_id) from documents")) {
            r.next(); System.out.println("documents " + r.getLong(1) + ", distinct ids " + r.getLong(2));
        }
    }
}
