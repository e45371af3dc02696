package textlib;

import java.util.Locale;

/**
 * The Java implementation of the ABS class Foreign.TextImpl (examples/abs/Foreign.abs): its public
 * methods named as the ABS methods replace them, one instance per ABS object; ABS Ints arrive as
 * Java ints (or longs, or BigIntegers, as the parameter types say), Strings and Bools as themselves.
 */
public class TextJava {
    private int calls;

    public String shout(String s) {
        calls++;
        return s.toUpperCase(Locale.ROOT) + "!";
    }

    public int words(String s) {
        calls++;
        String t = s.trim();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    public int calls() {
        return calls;
    }
}
