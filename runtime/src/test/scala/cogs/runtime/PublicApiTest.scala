package cogs.runtime

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import java.nio.charset.StandardCharsets.UTF_8
import java.nio.file.{Files, Path, Paths}
import scala.collection.immutable.TreeSet
import scala.jdk.CollectionConverters._
import scala.reflect.runtime.{universe => ru}

/**
 * The public API of the runtime: what users may call, as Scala and Java source see it, compared
 * with the checked-in list `src/test/resources/public-api.txt`. Every listed class and member must
 * exist with its signature, and nothing outside the `internal` packages may be public beyond the
 * list: a new public member fails this test until the list is regenerated with
 * `mvn -pl runtime verify -Dtest=PublicApiTest -Dcogs.api.update=true` and the diff reviewed.
 *
 * What is left out is left out by rule, read from the Scala signatures (scala-reflect, which the
 * test scope has through scala-compiler), not by a list of names:
 *  - packages named `internal` (`cogs.runtime.internal`: public in bytecode for generated code,
 *    documented as internal);
 *  - classes and members that are private or qualified-private (`private[runtime]`,
 *    `private[cogs]`), with everything inside such a class: the JVM makes them public, but Scala
 *    code outside the package cannot name them, and they are the runtime's business;
 *  - Java classes and members that are neither public nor protected (read with Java's reflection);
 *  - what the compiler makes (synthetic members, implementation artifacts, names with `$`:
 *    lambdas, default-argument getters, accessors of private members used by a companion), and an
 *    object's constructor.
 *
 * Java code can still call the Scala-private members through their bytecode; they are internal
 * by their Scala declaration, and this list is the contract (`docs/runtime-design.md`, section 7).
 * Signatures are Scala's (`def spawn[T <: cogs.runtime.ActiveObject](make: => T): T`) for Scala
 * classes, Java's (`public <T extends ..> T spawn(java.util.function.Supplier<T>)`) for Java ones.
 * The list is what the rule yields, reviewed: nothing in it was judged internal yet (see the
 * runtime README's "Public API by package" for what is meant for whom).
 */
class PublicApiTest {
  import PublicApiTest._

  @Test def thePublicApiIsTheCheckedInList(): Unit = {
    val actual = surface()
    val file = Paths.get(System.getProperty("basedir", "")).toAbsolutePath.resolve("src/test/resources/public-api.txt")
    if (java.lang.Boolean.getBoolean("cogs.api.update")) {
      Files.write(file, actual.toList.asJava, UTF_8)
      return
    }
    val expected = Files.readAllLines(file, UTF_8).asScala.filter(l => l.nonEmpty && !l.startsWith("#")).toSet
    val added = actual -- expected
    val removed = TreeSet.empty[String] ++ (expected -- actual)
    assertEquals("",
      (if (added.isEmpty) "" else added.mkString("public but not in the list:\n  ", "\n  ", "\n")) +
        (if (removed.isEmpty) "" else removed.mkString("in the list but missing (or with another signature):\n  ", "\n  ", "\n")),
      "the public API changed; if deliberate, regenerate public-api.txt (see PublicApiTest) and review the diff")
  }

  /** The rule sees what it should, so that the test cannot pass by reading nothing. */
  @Test def theRuleLeavesOutTheInternalsAndKeepsTheApi(): Unit = {
    val s = surface()
    assertTrue(s.exists(_.startsWith("cogs.runtime.CogRuntime | def spawn[")), "CogRuntime.spawn is listed")
    assertTrue(s.exists(_.startsWith("cogs.javadsl.Cogs | ")), "the Java DSL is listed")
    assertTrue(s.exists(_.startsWith("cogs.trace.Tracer ")), "cogs.trace is listed")
    assertTrue(s.exists(_.startsWith("cogs.runtime.package.ActiveOps | def ![A]")), "the package object's call syntax is listed")
    // private[runtime] classes, private[runtime] members of public classes, the internal package
    assertFalse(s.exists(l => l.startsWith("cogs.runtime.Cog ") || l.startsWith("cogs.runtime.Cog.")), "Cog is internal")
    assertFalse(s.exists(_.startsWith("cogs.runtime.CogRuntime | def nextTraceId")), "private[runtime] members are left out")
    assertFalse(s.exists(_.startsWith("cogs.runtime.internal.")), "cogs.runtime.internal is left out")
    assertFalse(s.exists(_.contains("$")), "compiler-made names are left out")
    // and the bytecode does have them: the rule is what leaves them out
    assertNotNull(Class.forName("cogs.runtime.Cog"))
    assertTrue(java.lang.reflect.Modifier.isPublic(Class.forName("cogs.runtime.Cog").getModifiers))
  }
}

object PublicApiTest {
  private val mirror = ru.runtimeMirror(classOf[PublicApiTest].getClassLoader)

  private val UnnamedParam = """\bx\$\d+: """.r

  private def classesRoot: Path = Paths.get(classOf[CogRuntime].getProtectionDomain.getCodeSource.getLocation.toURI)

  /** One line per public class and member, sorted. */
  def surface(): TreeSet[String] = {
    val root = classesRoot
    val out = TreeSet.newBuilder[String]
    val dirs = Files.walk(root.resolve("cogs")).iterator.asScala
      .filter(d => Files.isDirectory(d) && !root.relativize(d).iterator.asScala.exists(_.toString == "internal")).toList
    for (dir <- dirs; f <- Files.list(dir).iterator.asScala.toList) {
      val file = f.getFileName.toString
      if (file.endsWith(".class")) {
        val pkg = root.relativize(dir).toString.replace(java.io.File.separatorChar, '.')
        val simple = file.stripSuffix(".class")
        if (simple == "package") {
          val po = mirror.staticModule(pkg + ".package")
          members(po.moduleClass.asClass, pkg + ".package", out)
        } else if (!simple.contains("$")) {
          val name = pkg + "." + simple
          if (Files.exists(dir.resolve(simple + "$.class"))) {
            // A Scala object, and its class if it has one (an object alone also has a class file,
            // of static forwarders, which is not a class of its own)
            val m = mirror.staticModule(name)
            describe(m, name, out)
            if (m.companion != ru.NoSymbol) describe(m.companion, name, out)
          } else {
            val c = mirror.staticClass(name)
            if (c.isJava) describeJava(Class.forName(name, false, classOf[PublicApiTest].getClassLoader), out)
            else describe(c, name, out)
          }
        }
      }
    }
    out.result()
  }

  private def visible(s: ru.Symbol): Boolean =
    !s.isPrivate && !s.isSynthetic && !s.isImplementationArtifact && !s.name.decodedName.toString.contains("$") &&
      s.privateWithin == ru.NoSymbol

  private def describe(s: ru.Symbol, name: String, out: scala.collection.mutable.Builder[String, _]): Unit =
    if (visible(s)) {
      if (s.isModule) {
        out += s"$name : object"
        members(s.asModule.moduleClass.asClass, name, out)
      } else {
        val c = s.asClass
        val kind =
          if (c.isJava && c.isTrait) "interface" else if (c.isTrait) "trait" else if (c.isCaseClass) "case class"
          else if (c.isAbstract) "abstract class" else if (c.isFinal) "final class" else "class"
        val parents = c.info match {
          case ru.ClassInfoType(ps, _, _) => ps.map(_.toString).filterNot(p => p == "Object" || p == "java.lang.Object" || p == "AnyRef" || p == "Any")
          case ru.PolyType(_, ru.ClassInfoType(ps, _, _)) => ps.map(_.toString).filterNot(p => p == "Object" || p == "java.lang.Object" || p == "AnyRef" || p == "Any")
          case _ => Nil
        }
        out += s"$name : $kind${if (parents.isEmpty) "" else parents.mkString(" extends ", " with ", "")}"
        members(c, name, out)
      }
    }

  /**
   * A Java class, read with Java's reflection (whose modifiers are the source's): its public and
   * protected members, in Java's notation without the class's own name.
   */
  private def describeJava(c: Class[_], out: scala.collection.mutable.Builder[String, _]): Unit = {
    import java.lang.reflect.Modifier
    def shown(mods: Int, synthetic: Boolean) = (Modifier.isPublic(mods) || Modifier.isProtected(mods)) && !synthetic
    if (shown(c.getModifiers, c.isSynthetic)) {
      val name = c.getName
      val kind = if (c.isInterface) "interface" else if (Modifier.isAbstract(c.getModifiers)) "abstract class" else if (Modifier.isFinal(c.getModifiers)) "final class" else "class"
      val parents = (Option(c.getGenericSuperclass).toList ++ c.getGenericInterfaces).map(_.getTypeName).filterNot(_ == "java.lang.Object")
      out += s"$name : java $kind${if (parents.isEmpty) "" else parents.mkString(" extends ", " with ", "")}"
      def strip(g: String) = g.replace(name + ".", "")
      for (k <- c.getDeclaredConstructors if shown(k.getModifiers, k.isSynthetic)) out += s"$name | ${strip(k.toGenericString)}"
      for (m <- c.getDeclaredMethods if shown(m.getModifiers, m.isSynthetic || m.isBridge) && !m.getName.contains("$"))
        out += s"$name | ${strip(m.toGenericString)}"
      for (f <- c.getDeclaredFields if shown(f.getModifiers, f.isSynthetic) && !f.getName.contains("$")) out += s"$name | ${strip(f.toGenericString)}"
      c.getDeclaredClasses.foreach(describeJava(_, out))
    }
  }

  private def members(c: ru.ClassSymbol, owner: String, out: scala.collection.mutable.Builder[String, _]): Unit =
    for (d <- c.info.decls.sorted) {
      if (d.isClass || d.isModule) describe(d, owner + "." + d.name.decodedName.toString, out)
      // (an object's constructor is not the user's to call)
      else if (visible(d) && !(d.isConstructor && c.isModuleClass)) {
        val kind =
          if (d.isMethod && d.asMethod.isGetter) (if (d.asMethod.accessed != ru.NoSymbol && d.asMethod.accessed.asTerm.isVar) "var" else "val")
          else if (d.isMethod) "def" else if (d.asTerm.isVar) "var" else "val"
        val prot = if (d.isProtected) "protected " else ""
        // A setter's parameter has no name of its own (x$1): only its type is listed.
        val info = d.info match {
          case ru.NullaryMethodType(r) => ": " + r
          case t if !d.isMethod        => ": " + t
          case t                       => t.toString
        }
        out += s"$owner | $prot$kind ${d.name.decodedName}${UnnamedParam.replaceAllIn(info, "")}"
      }
    }
}
