package cogs.absc.driver

import java.nio.file.Paths

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

/** The class-data choice ([[ClassData]]): the one place that decides it, for every JVM absc starts or has started. */
class ClassDataTest {

  private val base = Paths.get("/c/cds-jdk")

  @Test def beforeJdk25AProgramGetsADynamicArchive(): Unit = {
    val p = ClassData.forProgram(base, 24)
    assertEquals(Paths.get("/c/cds-jdk.jsa"), p.archive)
    assertEquals(List("-XX:SharedArchiveFile=/c/cds-jdk.jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), p.mapped)
    assertEquals("-XX:ArchiveClassesAtExit=@TMP@", p.dump.head)
    assertEquals(Nil, p.make, "the dump is the archive: renamed, nothing to make")
  }

  @Test def fromJdk25AProgramGetsAnAotCacheMadeFromARecording(): Unit = {
    val p = ClassData.forProgram(base, 25)
    assertEquals(Paths.get("/c/cds-jdk.aot"), p.archive)
    assertTrue(p.mapped.contains("-XX:AOTCache=/c/cds-jdk.aot"), p.mapped.toString)
    assertTrue(p.dump.containsSlice(List("-XX:AOTMode=record", "-XX:AOTConfiguration=@TMP@")), p.dump.toString)
    assertTrue(p.dump.contains("-XX:-DisplayVMOutput"), "the JVM would print 'AOTConfiguration recorded' on the program's stdout")
    assertTrue(p.make.containsSlice(List("-XX:AOTMode=create", "-XX:AOTConfiguration=@TMP@", "-XX:AOTCache=@NEW@")), p.make.toString)
  }

  @Test def theCompilerJvmGetsADynamicArchiveOnEveryJdk(): Unit = {
    val a = Paths.get("/t/cds-compile.jsa")
    val (dump, temp) = ClassData.forCompiler(a).options(exists = false, pid = 42)
    assertEquals(Some(Paths.get("/t/cds-compile.jsa.42.tmp")), temp)
    assertEquals("-XX:ArchiveClassesAtExit=/t/cds-compile.jsa.42.tmp", dump.head)
    assertEquals((List("-XX:SharedArchiveFile=/t/cds-compile.jsa", "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), None),
      ClassData.forCompiler(a).options(exists = true, pid = 42))
  }

  @Test def abscNoCdsTurnsItOff(): Unit = {
    assertTrue(ClassData.disabled(Map("ABSC_NO_CDS" -> "1").get))
    assertFalse(ClassData.disabled(Map.empty[String, String].get))
    assertFalse(ClassData.disabled(Map("ABSC_NO_CDS" -> "").get))
  }

  @Test def theLauncherGetsBothPlansAsBash(): Unit = {
    val text = ClassData.launcherPlans
    assertTrue(text.linesIterator.contains("cd_jdk=25"), text)
    assertTrue(text.linesIterator.contains("cd_before_archive='@BASE@.jsa'"), text)
    assertTrue(text.linesIterator.contains("cd_from_archive='@BASE@.aot'"), text)
    assertTrue(text.linesIterator.contains("cd_before_make=()"), text)
  }
}
