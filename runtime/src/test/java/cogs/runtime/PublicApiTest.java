package cogs.runtime;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The public API of {@code cogs.runtime}, {@code cogs.javadsl} and {@code cogs.trace} as the JVM sees it (what Java
 * code can call and what binary compatibility is about), compared with the checked-in list
 * {@code src/test/resources/public-api.txt}, so that every change to it is deliberate: a change
 * makes this test fail until the list is regenerated with
 * {@code mvn -pl runtime test -Dtest=PublicApiTest -Dcogs.api.update=true} and the diff reviewed.
 *
 * <p>Scala's qualified access ({@code private[runtime]}, {@code private[cogs]}) is enforced by the
 * Scala compiler only: such classes and members are public in bytecode, so they appear here, each
 * classes marked {@code [Scala: package-private]} (from the list {@link #SCALA_PRIVATE}); qualified-private
 * members of public classes are not marked.
 * Anonymous and synthetic classes and members are left out.
 */
class PublicApiTest {

    /**
     * Classes that Scala code outside their package cannot name (private[runtime], private[cogs],
     * private), though the JVM makes them public. Kept in step with the sources by {@link #scalaPrivateClassesExist}.
     */
    static final List<String> SCALA_PRIVATE = List.of(
            "cogs.runtime.Cog", "cogs.runtime.Cog$", "cogs.runtime.Process", "cogs.runtime.WakeToken",
            "cogs.runtime.TraceHooks", "cogs.runtime.TraceHooks$", "cogs.runtime.TraceSlot", "cogs.runtime.ActiveObject$",
            "cogs.runtime.JavaSupport", "cogs.runtime.JavaSupport$", "cogs.runtime.Proc$Node",
            "cogs.runtime.CogRuntime$Worker", "cogs.runtime.CogRuntime$MainBlock", "cogs.runtime.CogRuntime$Halted",
            "cogs.runtime.DeadlockException$", "cogs.runtime.Fut$Failed", "cogs.runtime.Fut$Value",
            "cogs.runtime.Guard$And", "cogs.runtime.Guard$Cond", "cogs.runtime.Guard$Or",
            "cogs.runtime.Proc$Await", "cogs.runtime.Proc$AwaitFut", "cogs.runtime.Proc$Bind", "cogs.runtime.Proc$Defer",
            "cogs.runtime.Proc$Delay", "cogs.runtime.Proc$Ensure", "cogs.runtime.Proc$Get", "cogs.runtime.Proc$GetAt", "cogs.runtime.Proc$Handle",
            "cogs.runtime.Proc$Map", "cogs.runtime.Proc$Pure", "cogs.runtime.Proc$Raise", "cogs.runtime.Proc$Suspend$",
            "cogs.runtime.Proc$Sync", "cogs.runtime.Watchdog", "cogs.runtime.Watchdog$", "cogs.runtime.StuckProcess",
            "cogs.runtime.NearQueue");

    private static Path classesRoot() throws URISyntaxException {
        return Paths.get(CogRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    static List<String> surface() throws IOException, URISyntaxException, ClassNotFoundException {
        Path root = classesRoot();
        TreeSet<String> lines = new TreeSet<>();
        for (String pkg : List.of("cogs/runtime", "cogs/trace", "cogs/javadsl")) {
            List<Path> files;
            try (Stream<Path> s = Files.list(root.resolve(pkg))) {
                files = s.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList());
            }
            for (Path f : files) {
                String name = pkg.replace('/', '.') + "." + f.getFileName().toString().replace(".class", "");
                if (name.contains("$anon") || name.contains("$$") || name.endsWith("package") || name.endsWith("package$")) continue;
                Class<?> c = Class.forName(name, false, PublicApiTest.class.getClassLoader());
                if (!Modifier.isPublic(c.getModifiers()) || c.isSynthetic()) continue;
                String tag = SCALA_PRIVATE.contains(name) ? "  [Scala: package-private]" : "";
                lines.add(name + " : " + kind(c) + tag);
                for (Constructor<?> k : c.getDeclaredConstructors())
                    if (Modifier.isPublic(k.getModifiers()) && !k.isSynthetic()) lines.add(name + " | " + k);
                for (Method m : c.getDeclaredMethods())
                    if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge() && !m.getName().contains("$anonfun"))
                        lines.add(name + " | " + m);
                for (Field x : c.getDeclaredFields())
                    if (Modifier.isPublic(x.getModifiers()) && !x.isSynthetic() && !x.getName().equals("MODULE$"))
                        lines.add(name + " | " + x);
            }
        }
        return new ArrayList<>(lines);
    }

    private static String kind(Class<?> c) {
        String sup = c.getSuperclass() == null || c.getSuperclass() == Object.class ? "" : " extends " + c.getSuperclass().getName();
        return (c.isInterface() ? "interface" : Modifier.isAbstract(c.getModifiers()) ? "abstract class" : "class") + sup;
    }

    @Test
    void thePublicApiIsTheCheckedInOne() throws Exception {
        List<String> actual = surface();
        Path expectedFile = Paths.get(System.getProperty("basedir", "")).toAbsolutePath()
                .resolve("src/test/resources/public-api.txt");
        if (Boolean.getBoolean("cogs.api.update")) {
            Files.write(expectedFile, actual, StandardCharsets.UTF_8);
            return;
        }
        List<String> expected = Files.readAllLines(expectedFile, StandardCharsets.UTF_8);
        TreeSet<String> added = new TreeSet<>(actual);
        expected.forEach(added::remove);
        TreeSet<String> removed = new TreeSet<>(expected);
        actual.forEach(removed::remove);
        assertEquals("", (added.isEmpty() ? "" : "added:\n  " + String.join("\n  ", added) + "\n")
                + (removed.isEmpty() ? "" : "removed:\n  " + String.join("\n  ", removed) + "\n"),
                "the public API changed; if deliberate, regenerate public-api.txt (see PublicApiTest) and review the diff");
    }

    @Test
    void scalaPrivateClassesExist() throws Exception {
        for (String n : SCALA_PRIVATE) Class.forName(n, false, PublicApiTest.class.getClassLoader());
        assertTrue(surface().stream().anyMatch(l -> l.startsWith("cogs.runtime.Cog : ") && l.contains("[Scala: package-private]")));
    }
}
