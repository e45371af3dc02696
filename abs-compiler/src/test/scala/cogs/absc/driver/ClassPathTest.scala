package cogs.absc.driver

import java.io.File
import java.nio.file.Files
import java.util.jar.{Attributes, JarOutputStream, Manifest}

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

class ClassPathTest {

  @Test def manifestOnlyJarsAreExpanded(): Unit = {
    val dir = Files.createTempDirectory("absc-cp")
    val lib = Files.createDirectories(dir.resolve("lib dir"))
    val a = Files.writeString(lib.resolve("a.jar"), "")
    val classes = Files.createDirectories(dir.resolve("classes"))
    val m = new Manifest
    m.getMainAttributes.put(Attributes.Name.MANIFEST_VERSION, "1.0")
    // Relative and absolute URLs, a missing entry (dropped), spaces escaped as URLs do.
    m.getMainAttributes.put(Attributes.Name.CLASS_PATH, s"lib%20dir/a.jar ${classes.toUri} missing.jar")
    val booter = dir.resolve("booter.jar")
    new JarOutputStream(Files.newOutputStream(booter), m).close()
    val entries = ClassPath.expand(booter.toString + File.pathSeparator + "does-not-exist.jar")
    assertEquals(List(booter, a, classes).map(_.toAbsolutePath.normalize), entries)
  }

  @Test def theRunningClassPathHasTheRuntimeAndTheLibrary(): Unit = {
    val cp = ClassPath.asString(ClassPath.entries)
    assertTrue(ClassPath.entries.nonEmpty)
    assertTrue(cp.contains("scala-library"), cp)
  }

  @Test def theFingerprintChangesWhenAFileChanges(): Unit = {
    val dir = Files.createTempDirectory("absc-fp")
    val f = Files.writeString(dir.resolve("A.class"), "1")
    val jar = Files.writeString(Files.createTempFile("absc-fp", ".jar"), "j")
    val before = ClassPath.fingerprint(List(dir, jar))
    assertEquals(before, ClassPath.fingerprint(List(dir, jar)))
    Files.writeString(f, "22")
    val afterClass = ClassPath.fingerprint(List(dir, jar))
    assertNotEquals(before, afterClass)
    Files.writeString(jar, "jj")
    assertNotEquals(afterClass, ClassPath.fingerprint(List(dir, jar)))
  }
}
