package cogs.absc.driver

import cogs.absc.emit.EmittedProgram

import java.nio.file.{Files, Path}
import java.nio.file.attribute.FileTime

import scala.jdk.CollectionConverters._
import scala.util.Using

import org.junit.jupiter.api.Assertions._
import org.junit.jupiter.api.Test

import cogs.absc.ast.Pos
import cogs.absc.diag.Diagnostic

import DriverTestSupport._

/** The cache of compiled programs: hits, misses, keys, --no-cache, pruning. */
class CacheTest {

  private def entries(cache: Path): List[Path] =
    if (!Files.isDirectory(cache)) Nil else Using.resource(Files.list(cache))(_.iterator.asScala.toList)

  @Test def theSecondRunOfTheSameSourcesIsACacheHit(): Unit = {
    val dir = tempDir("absc-cache")
    val cache = dir.resolve("cache")
    val backend = new FakeBackend(programs)
    val f = absFile(dir, "hello")
    val first = absc(backend, "run", "-v", "--cache-dir", cache.toString, f)
    assertEquals(0, first.status, first.err)
    assertTrue(first.err.contains("absc: cache miss: "), first.err)
    assertEquals(1, backend.emitted.get)
    assertEquals(1, entries(cache).size)

    val second = absc(backend, "run", "-v", "--cache-dir", cache.toString, f)
    assertEquals(0, second.status, second.err)
    assertTrue(second.err.contains("absc: cache hit: "), second.err)
    assertFalse(second.err.contains("absc: scalac"), "no scalac on a hit:\n" + second.err)
    assertFalse(second.err.contains("absc: parse"), "no parsing on a hit:\n" + second.err)
    assertEquals(1, backend.emitted.get, "not translated again")
    assertEquals(first.programOut, second.programOut)
  }

  @Test def changedSourcesAreCompiledAgain(): Unit = {
    val dir = tempDir("absc-cache")
    val cache = dir.resolve("cache")
    val backend = new FakeBackend(programs)
    val f = absFile(dir, "hello")
    assertEquals(0, absc(backend, "run", "--cache-dir", cache.toString, f).status)
    absFile(dir, "hello", AbsText + "// changed\n")
    assertEquals(0, absc(backend, "run", "--cache-dir", cache.toString, f).status)
    assertEquals(2, backend.emitted.get)
    assertEquals(2, entries(cache).size)
  }

  @Test def noCacheNeitherReadsNorWritesTheCache(): Unit = {
    val dir = tempDir("absc-cache")
    val cache = dir.resolve("cache")
    val backend = new FakeBackend(programs)
    val f = absFile(dir, "hello")
    for (_ <- 1 to 2) {
      val r = absc(backend, "run", "--no-cache", "--cache-dir", cache.toString, f)
      assertEquals(0, r.status, r.err)
      assertEquals("hello 21\nresult 42\nargs \n", r.programOut)
    }
    assertEquals(2, backend.emitted.get)
    assertFalse(Files.exists(cache))
  }

  @Test def aProgramThatDoesNotCompileIsNotCached(): Unit = {
    val dir = tempDir("absc-cache")
    val cache = dir.resolve("cache")
    val backend = new FakeBackend(programs)
    val f = absFile(dir, "sad")
    assertEquals(2, absc(backend, "run", "--cache-dir", cache.toString, f).status)
    assertEquals(2, absc(backend, "run", "--cache-dir", cache.toString, f).status)
    assertEquals(2, backend.emitted.get)
    assertEquals(Nil, entries(cache), "neither an entry nor a temporary directory is left")
  }

  @Test def keepGeneratedWorksOnACacheHitAndWarningsAreShownAgain(): Unit = {
    val dir = tempDir("absc-cache")
    val cache = dir.resolve("cache")
    val f = absFile(dir, "hello")
    val backend = new FakeBackend(programs, List(Diagnostic.warning(Pos(f, 1, 1), "careful")))
    val first = absc(backend, "run", "--cache-dir", cache.toString, f)
    assertEquals(0, first.status)
    val keep = dir.resolve("kept")
    val second = absc(backend, "run", "--cache-dir", cache.toString, "--keep-generated", keep.toString, f)
    assertEquals(0, second.status)
    assertEquals(1, backend.emitted.get)
    assertEquals(hello.files.head.text, Files.readString(keep.resolve("hello/Main.scala")))
    assertTrue(second.err.startsWith(s"$f:1:1: warning: careful"), second.err)
  }

  @Test def theKeyDependsOnNamesTextsAndVersions(): Unit = {
    val a = List(SourceFile("a.abs", "x"))
    val k = ClassCache.key(a, "1", "cp")
    assertEquals(64, k.length)
    assertEquals(k, ClassCache.key(a, "1", "cp"))
    assertNotEquals(k, ClassCache.key(List(SourceFile("b.abs", "x")), "1", "cp"))
    assertNotEquals(k, ClassCache.key(List(SourceFile("a.abs", "y")), "1", "cp"))
    assertNotEquals(k, ClassCache.key(a, "2", "cp"))
    assertNotEquals(k, ClassCache.key(a, "1", "cp2"))
    // Boundaries between files count: ("ab", "c") is not ("a", "bc").
    assertNotEquals(ClassCache.key(List(SourceFile("ab", "c")), "1", "cp"), ClassCache.key(List(SourceFile("a", "bc")), "1", "cp"))
  }

  @Test def theDefaultRootFollowsXdg(): Unit = {
    assertEquals(java.nio.file.Paths.get("/x/cache", "absc"), ClassCache.defaultRoot(Map("XDG_CACHE_HOME" -> "/x/cache").get))
    assertEquals(java.nio.file.Paths.get(System.getProperty("user.home"), ".cache", "absc"), ClassCache.defaultRoot(_ => None))
  }

  @Test def pruningKeepsTheMostRecentlyUsedEntries(): Unit = {
    val root = tempDir("absc-prune")
    val cache = new ClassCache(root)
    val now = System.currentTimeMillis()
    val keys = (0 until ClassCache.MaxEntries + 3).map(i => f"$i%064x")
    for ((k, i) <- keys.zipWithIndex) {
      val d = Files.createDirectories(root.resolve(k).resolve("classes"))
      Files.writeString(root.resolve(k).resolve("main"), "")
      Files.setLastModifiedTime(d.getParent, FileTime.fromMillis(now - (keys.size - i) * 1000L))
    }
    val staleTemp = Files.createDirectories(root.resolve("tmp-old"))
    Files.setLastModifiedTime(staleTemp, FileTime.fromMillis(now - 2 * 3600 * 1000L))
    val freshTemp = Files.createDirectories(root.resolve("tmp-new"))
    assertTrue(cache.lookup(keys.head).isDefined) // now the most recently used
    cache.prune()
    val left = entries(root).map(_.getFileName.toString).toSet
    assertEquals(ClassCache.MaxEntries + 1, left.size) // the entries kept, and the fresh temp
    assertTrue(left.contains(keys.head))
    assertFalse(left.contains(keys(1)))
    assertFalse(left.contains(keys(2)))
    assertFalse(left.contains(keys(3)))
    assertTrue(left.contains(freshTemp.getFileName.toString))
  }

  @Test def whenTwoRunsBuildTheSameEntryTheFirstCommitWins(): Unit = {
    val cache = new ClassCache(tempDir("absc-race"))
    val key = "a" * 64
    def build(main: String): java.nio.file.Path = {
      val t = cache.newTempDir(key)
      CompiledProgram.writeMetadata(t, EmittedProgram(Nil, Some(main)), "")
      t
    }
    val (first, second) = (build("first.Main"), build("second.Main"))
    assertEquals(Some("first.Main"), cache.commit(key, first).mainObject)
    assertEquals(Some("first.Main"), cache.commit(key, second).mainObject)
    assertFalse(Files.exists(second), "the loser's directory is removed")
  }

  @Test def anUnusableCacheDirectoryOnlyCostsTheCache(): Unit = {
    val dir = tempDir("absc-cache")
    val notADir = Files.writeString(dir.resolve("file"), "")
    val r = absc(new FakeBackend(programs), "run", "--cache-dir", notADir.toString, absFile(dir, "hello"))
    assertEquals(0, r.status, r.err)
    assertTrue(r.err.startsWith(s"absc: warning: cannot write to the cache in $notADir"), r.err)
    assertEquals("hello 21\nresult 42\nargs \n", r.programOut)
  }
}
