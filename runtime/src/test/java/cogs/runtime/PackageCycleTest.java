package cogs.runtime;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cogs.trace} (the events and the interfaces a trace consumer implements) must not depend
 * on {@code cogs.runtime}, which depends on it: one direction only, so that a consumer such as
 * the monitor needs the SPI and nothing of the runtime's insides.
 *
 * <p>A class file names every class it uses in its constant pool (class entries, field and method
 * descriptors, generic signatures), so a reference from {@code cogs.trace} to the runtime shows
 * up there as {@code cogs/runtime/...}, whatever the source language. The test reads the constant
 * pools of the compiled classes itself (no library), and checks on the runtime's classes that it
 * does see references, so that it cannot pass by reading nothing.
 */
class PackageCycleTest {

    private static Path classesRoot() throws Exception {
        return Paths.get(CogRuntime.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** The UTF-8 constants of a class file: where every class name and descriptor it uses is spelled. */
    static List<String> utf8Constants(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) throw new IOException("not a class file");
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        List<String> out = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: out.add(in.readUTF()); break;                         // Utf8
                case 3: case 4: in.readInt(); break;                           // Integer, Float
                case 5: case 6: in.readLong(); i++; break;                     // Long, Double: two slots
                case 7: case 8: case 16: case 19: case 20: in.readUnsignedShort(); break; // Class, String, MethodType, Module, Package
                case 9: case 10: case 11: case 12: case 17: case 18: in.readInt(); break; // refs, NameAndType, (Invoke)Dynamic
                case 15: in.readUnsignedByte(); in.readUnsignedShort(); break; // MethodHandle
                default: throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        return out;
    }

    /** For each class of {@code pkg}, the classes of {@code target} it refers to ({@code Class -> target/X}). */
    static TreeSet<String> references(String pkg, String target) throws Exception {
        Path dir = classesRoot().resolve(pkg);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".class")).collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no classes in " + dir);
        TreeSet<String> refs = new TreeSet<>();
        for (Path f : files)
            for (String c : utf8Constants(Files.readAllBytes(f))) {
                int at = c.indexOf(target + "/");
                if (at >= 0) refs.add(f.getFileName() + " -> " + c.substring(at).split("[;<>]")[0]);
            }
        return refs;
    }

    @Test
    void theTracePackageDoesNotDependOnTheRuntime() throws Exception {
        assertEquals(new TreeSet<String>(), references("cogs/trace", "cogs/runtime"));
        assertEquals(new TreeSet<String>(), references("cogs/trace", "cogs/javadsl"));
    }

    @Test
    void theScanSeesReferences() throws Exception {
        TreeSet<String> refs = references("cogs/runtime", "cogs/trace");
        assertTrue(refs.contains("CogRuntime.class -> cogs/trace/Tracing"), refs.toString());
        assertTrue(refs.stream().anyMatch(r -> r.startsWith("TraceHooks$.class -> cogs/trace/TraceEvent$")), refs.toString());
    }
}
