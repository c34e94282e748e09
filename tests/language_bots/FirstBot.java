// A bot in Java that plays the first legal action (tests: the JVM runs in the
// sandbox, under its system call filter).  It reads one JSON line at a time and
// looks only at its "type": the referee writes compact JSON.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class FirstBot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.contains("\"type\":\"hello\"")) {
                System.out.println("{\"type\":\"hello\",\"name\":\"FirstBot.java\",\"version\":\"1\","
                                   + "\"protocol_version\":1}");
            } else if (line.contains("\"type\":\"act\"")) {
                System.out.println("{\"type\":\"action\",\"choice\":0}");
            }
            System.out.flush();
        }
    }
}
