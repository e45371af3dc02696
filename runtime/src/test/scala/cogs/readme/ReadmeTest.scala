package cogs.readme

import java.io.{ByteArrayOutputStream, PrintStream}
import java.net.URLClassLoader
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}
import javax.tools.ToolProvider
import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test
import scala.jdk.CollectionConverters._
import scala.reflect.internal.util.BatchSourceFile
import scala.tools.nsc.{Global, Settings}
import scala.tools.nsc.reporters.StoreReporter

/**
 * The root README's code, compiled from the README itself so that it cannot drift from the API:
 * every ```java and ```scala block (the tour and "Use Cogs as a dependency"), against the
 * runtime's classes and the two libraries a user's build brings with it (scala-library,
 * Typesafe Config) only. The `Hello` programs are also run. The Maven and sbt coordinates are
 * compared with the poms. Maven and sbt themselves are not run here (see the README).
 */
class ReadmeTest {
  import ReadmeTest._

  @Test def everyJavaBlockCompilesAndImportsFromTheJavaDslOnly(): Unit = {
    val blocks = ReadmeTest.blocks("java")
    assertTrue(blocks.size >= 2, s"expected the tour and Hello in Java, found ${blocks.size} blocks")
    for ((code, i) <- blocks.zipWithIndex) {
      val cogsImports = code.linesIterator.map(_.trim).filter(_.startsWith("import cogs.")).toList
      assertEquals(List("import cogs.javadsl.*;"), cogsImports, s"java block $i imports:\n$code")
      compileJava(code, i)
    }
  }

  @Test def theJavaHelloRuns(): Unit = {
    val hello = ReadmeTest.blocks("java").zipWithIndex.find(_._1.contains("class Hello")).getOrElse(fail("no Java Hello"))
    val out = compileJava(hello._1, hello._2)
    assertEquals("2", runMain(out, "hello.Hello").trim)
  }

  @Test def everyScalaBlockCompiles(): Unit = {
    val blocks = ReadmeTest.blocks("scala")
    assertTrue(blocks.size >= 2, s"expected the tour and Hello in Scala, found ${blocks.size} blocks")
    for ((code, i) <- blocks.zipWithIndex) compileScala(code, i)
  }

  @Test def theScalaHelloRuns(): Unit = {
    val hello = ReadmeTest.blocks("scala").zipWithIndex.find(_._1.contains("object Hello")).getOrElse(fail("no Scala Hello"))
    val out = compileScala(hello._1, hello._2)
    assertEquals("2", runMain(out, "hello.Hello").trim)
  }

  @Test def theCoordinatesAreThePoms(): Unit = {
    val root = read(repo.resolve("pom.xml"))
    val runtimePom = read(repo.resolve("runtime/pom.xml"))
    val group = tag(root, "groupId")
    val version = tag(root, "version")
    val artifact = tag(runtimePom.substring(runtimePom.indexOf("</parent>")), "artifactId")
    val scalaVersion = tag(root, "scala.version")
    val pluginVersion = tag(root, "scala-maven-plugin.version")
    assertEquals(("dev.cogs", "cogs-runtime"), (group, artifact)) // what the README's prose names

    val xml = ReadmeTest.blocks("xml")
    val pom = xml.find(_.contains("<dependency>")).getOrElse(fail("no Maven pom block"))
    val dependency = element(pom, "dependency")
    assertEquals(List(group, artifact, version), List("groupId", "artifactId", "version").map(tag(dependency, _)))
    assertEquals(tag(root, "maven.compiler.release"), tag(pom, "maven.compiler.release"))
    assertEquals(tag(root, "compiler-plugin.version"), tag(element(pom, "plugin"), "version"))
    val plugin = xml.find(_.contains("scala-maven-plugin")).getOrElse(fail("no scala-maven-plugin block"))
    assertEquals(pluginVersion, tag(plugin, "version"))
    assertEquals(scalaVersion, tag(plugin, "scalaVersion"))

    val sbt = ReadmeTest.blocks("sbt").mkString("\n")
    assertTrue(sbt.contains(s""""$group" % "$artifact" % "$version""""), sbt)
    assertTrue(sbt.contains(s"""scalaVersion := "$scalaVersion""""), sbt)
    assertTrue(readme.contains(s"`$group:$artifact:$version`"), "the prose names the coordinates")
  }
}

object ReadmeTest {
  val repo: Path = Paths.get(System.getProperty("basedir", ".")).toAbsolutePath.getParent
  def read(p: Path): String = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
  lazy val readme: String = read(repo.resolve("README.md"))

  /** The fenced blocks of the README in `lang`, in order. */
  def blocks(lang: String): List[String] =
    ("(?ms)^```" + java.util.regex.Pattern.quote(lang) + "\\s*$(.*?)^```\\s*$").r.findAllMatchIn(readme).map(_.group(1)).toList

  /** The first `<name>...</name>` element of `xml`, tags included. */
  private def element(xml: String, name: String): String = {
    val from = xml.indexOf(s"<$name>")
    val to = xml.indexOf(s"</$name>", from)
    if (from < 0 || to < 0) fail(s"no <$name> in\n$xml")
    xml.substring(from, to + name.length + 3)
  }

  private def tag(xml: String, name: String): String = {
    val m = s"<$name>([^<]*)</$name>".r.findFirstMatchIn(xml).getOrElse(fail(s"no <$name> in\n$xml"))
    m.group(1).trim
  }

  /** What a user's build has: the runtime and its two dependencies, not the test classes. */
  lazy val classpath: List[Path] =
    List(classOf[cogs.runtime.CogRuntime], classOf[scala.Option[_]], classOf[com.typesafe.config.Config])
      .map(c => Paths.get(c.getProtectionDomain.getCodeSource.getLocation.toURI))

  private def isWholeFile(code: String): Boolean = code.linesIterator.exists(_.trim.startsWith("package "))

  /** Compile Java block `i`; a block that is not a whole file is the body of a method (local classes and interfaces). */
  def compileJava(code: String, i: Int): Path = {
    val dir = Files.createTempDirectory(s"readme-java-$i")
    val (path, text) =
      if (isWholeFile(code)) {
        val pkg = "(?m)^package ([\\w.]+);".r.findFirstMatchIn(code).get.group(1)
        val cls = "public (?:final )?class (\\w+)".r.findFirstMatchIn(code).get.group(1)
        (dir.resolve("src").resolve(pkg.replace('.', '/')).resolve(s"$cls.java"), code)
      } else {
        val (imports, body) = code.linesIterator.toList.partition(_.startsWith("import "))
        (dir.resolve("src/ReadmeSnippet.java"),
          imports.mkString("\n") + "\nfinal class ReadmeSnippet {\n  static void snippet() throws Exception {\n" +
            body.mkString("\n") + "\n  }\n}\n")
      }
    Files.createDirectories(path.getParent)
    Files.write(path, text.getBytes(StandardCharsets.UTF_8))
    val out = Files.createDirectories(dir.resolve("classes"))
    val javac = ToolProvider.getSystemJavaCompiler
    val errors = new ByteArrayOutputStream
    val rc = javac.run(null, null, errors, "-d", out.toString, "-classpath", classpath.mkString(java.io.File.pathSeparator),
      "-Xlint:all", path.toString)
    assertEquals(0, rc, s"java block $i does not compile:\n$errors\n--- as compiled:\n$text")
    out
  }

  /** Compile Scala block `i`; a block that is not a whole file is the body of an object. */
  def compileScala(code: String, i: Int): Path = {
    val dir = Files.createTempDirectory(s"readme-scala-$i")
    val text = if (isWholeFile(code)) code else s"object ReadmeSnippet$i {\n$code\n}\n"
    val settings = new Settings(msg => fail(s"scalac settings: $msg"))
    settings.classpath.value = classpath.mkString(java.io.File.pathSeparator)
    settings.outputDirs.setSingleOutput(dir.toString)
    val reporter = new StoreReporter(settings)
    val global = new Global(settings, reporter)
    new global.Run().compileSources(List(new BatchSourceFile(s"readme-$i.scala", text)))
    val errors = reporter.infos.filter(_.severity == reporter.ERROR).map(e => s"${e.pos.line}: ${e.msg}")
    assertEquals(Nil, errors.toList, s"scala block $i does not compile; as compiled:\n$text")
    dir
  }

  /** Run `cls`'s main from `out` (with the runtime from this class loader) and give what it printed. */
  def runMain(out: Path, cls: String): String = {
    val loader = new URLClassLoader(Array(out.toUri.toURL), getClass.getClassLoader)
    val buf = new ByteArrayOutputStream
    val saved = System.out
    val ps = new PrintStream(buf, true, "UTF-8")
    System.setOut(ps) // Java's System.out; Scala's println goes to Console.out, set apart
    try Console.withOut(ps)(loader.loadClass(cls).getMethod("main", classOf[Array[String]]).invoke(null, Array.empty[String]))
    finally { System.setOut(saved); loader.close() }
    buf.toString("UTF-8")
  }
}
