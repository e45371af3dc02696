package cogs.runtime

import java.net.URL
import java.nio.charset.StandardCharsets

/**
 * Whether `ConfigFactory.load()` could give some keys a value other than Cogs' own defaults,
 * decided without loading Typesafe Config (about 140 classes and a parse: some 50-95 ms of the cold
 * start of an ABS model on JDK 17, for settings that nearly every run leaves at their defaults).
 * The runtime asks it before reading its `cogs.*` settings, `absc`'s runner before looking for
 * deployment components mapped to cluster nodes: the one analysis for both, parameterised by the
 * keys asked about. Its answer may be a false alarm (then Config is loaded), never a miss for what
 * `ConfigFactory.load()` reads:
 *  - system properties: a key at, under or above one of the keys asked about (Config turns system
 *    properties into paths), and every `config.*` property (`config.resource`, `config.file`,
 *    `config.url`, `config.strategy`, `config.override_with_env_vars` change what is read);
 *  - `application.conf`/`.json`/`.properties` anywhere on the class path, and the `.json` and
 *    `.properties` forms of `reference`;
 *  - a `reference.conf` other than the ones next to the classes named as Cogs' own, if it may set
 *    one of the keys, judged by [[maySetIn]] on its text.
 *
 * For Cogs' own modules; not part of the runtime's API for programs.
 */
object ConfigProbe {

  /** The runtime's own keys (see reference.conf); their defaults are in `Settings.defaults`. */
  private val RuntimeKeys = List("cogs.executor", "cogs.throughput", "cogs.on-fatal-error", "cogs.shutdown-timeout",
    "cogs.report-unobserved-failures", "cogs.watchdog", "cogs.scheduler.pool")

  private[runtime] def mayOverride(loader: ClassLoader): Boolean = maySet(loader, RuntimeKeys, List(classOf[CogRuntime]))

  /**
   * May `ConfigFactory.load()`, reading resources through `loader`, set any of the dotted `keys`
   * (or anything inside them) differently from the `reference.conf` files next to the classes
   * `own` (the modules whose defaults the caller already knows)?
   */
  def maySet(loader: ClassLoader, keys: Seq[String], own: Seq[Class[_]]): Boolean = {
    val paths = keys.map(_.split('.').toList)
    val props = System.getProperties.stringPropertyNames.iterator()
    while (props.hasNext) {
      val k = props.next()
      if (k.startsWith("config.") || overlaps(k.split('.').toList, paths)) return true
    }
    val others = List("application.conf", "application.json", "application.properties", "reference.json", "reference.properties")
    if (others.exists(r => loader.getResource(r) ne null)) return true
    val known = own.flatMap(referenceNextTo)
    val refs = loader.getResources("reference.conf")
    while (refs.hasMoreElements) {
      val u = refs.nextElement()
      if (!known.contains(u.toString)) {
        val text =
          try new String(read(u), StandardCharsets.UTF_8)
          catch { case _: java.io.IOException => return true } // Config would fail on it too: let it say so
        if (maySetIn(text, keys)) return true
      }
    }
    false
  }

  // A path set at, under or above a key asked about: `a.b` = 1 sets nothing of `a.c`, but `a` = 1
  // replaces all of `a`, and `a.b.c` = 1 is inside `a.b`.
  private def overlaps(path: List[String], keys: Seq[List[String]]): Boolean =
    keys.exists(k => path.startsWith(k) || k.startsWith(path))

  /** The address of the `reference.conf` in the jar or directory `c` was loaded from. */
  private def referenceNextTo(c: Class[_]): Option[String] = {
    val file = c.getName.replace('.', '/') + ".class"
    Option(c.getResource("/" + file)).map(_.toString).filter(_.endsWith(file)).map(s => s.stripSuffix(file) + "reference.conf")
  }

  private def read(u: URL): Array[Byte] = {
    val c = u.openConnection()
    c.setUseCaches(false) // a cached JarFile would keep the jar open (and locked on Windows)
    val in = c.getInputStream
    try in.readAllBytes() finally in.close()
  }

  /**
   * False only if this HOCON text certainly sets none of the dotted `keys`: it follows the text's
   * objects, with their paths, and checks each key it meets at the top or in objects (arrays and
   * values are skipped: keys inside them set no path). Whatever it does not follow (an `include`,
   * a quoted key, braces around the whole file, unbalanced brackets) counts as a possible override.
   */
  def maySetIn(text: String, keys: Seq[String]): Boolean = {
    val paths = keys.map(_.split('.').toList)
    val n = text.length
    var i = 0
    // The paths of the enclosing objects, innermost first.
    var frames: List[List[String]] = List(Nil)

    def skipSpaceAndComments(stopAtNewline: Boolean): Unit = {
      var go = true
      while (go && i < n) {
        val c = text.charAt(i)
        if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
          while (i < n && text.charAt(i) != '\n') i += 1
        } else if (c == '\n' && stopAtNewline) go = false
        else if (Character.isWhitespace(c) || c == '\uFEFF') i += 1
        else go = false
      }
    }

    // Skips a quoted string starting at i (plain or triple-quoted); false if it never ends.
    def skipString(): Boolean =
      if (text.startsWith("\"\"\"", i)) {
        val end = text.indexOf("\"\"\"", i + 3)
        if (end < 0) false
        else {
          i = end + 3
          while (i < n && text.charAt(i) == '"') i += 1 // a triple-quoted string may end in more quotes
          true
        }
      } else {
        i += 1
        while (i < n && text.charAt(i) != '"' && text.charAt(i) != '\n') {
          if (text.charAt(i) == '\\') i += 1
          i += 1
        }
        if (i < n && text.charAt(i) == '"') { i += 1; true } else false
      }

    // Skips a value that is not an object: up to a newline, a comma or the enclosing object's '}'.
    // False if it cannot be followed.
    def skipValue(): Boolean = {
      var depth = 0
      while (i < n) {
        val c = text.charAt(i)
        if (c == '"') { if (!skipString()) return false }
        else if (c == '#' || (c == '/' && i + 1 < n && text.charAt(i + 1) == '/')) {
          while (i < n && text.charAt(i) != '\n') i += 1
        } else if (c == '$' && i + 1 < n && text.charAt(i + 1) == '{') {
          val end = text.indexOf('}', i)
          if (end < 0) return false
          i = end + 1
        } else if (c == '[' || c == '{') { depth += 1; i += 1 }
        else if (c == ']' || c == '}') {
          if (depth == 0) return c == '}' // the enclosing object ends; a stray ']' is not followed
          depth -= 1; i += 1
        } else if ((c == '\n' || c == ',') && depth == 0) return true
        else i += 1
      }
      depth == 0
    }

    while (true) {
      skipSpaceAndComments(stopAtNewline = false)
      while (i < n && text.charAt(i) == ',') { i += 1; skipSpaceAndComments(stopAtNewline = false) }
      if (i >= n) return frames.length != 1 // an object left open: not followed
      val c = text.charAt(i)
      if (c == '}') {
        if (frames.length == 1) return true
        frames = frames.tail
        i += 1
      } else if (c == '"' || c == '{' || c == '[' || c == '$') return true
      else {
        val start = i
        while (i < n && { val d = text.charAt(i); !(Character.isWhitespace(d) || d == '=' || d == ':' || d == '{' || d == '+' || d == '#' || d == '}' || d == ',') })
          i += 1
        val key = text.substring(start, i)
        // Config also takes some non-ASCII spaces (no-break spaces, U+FEFF) for whitespace, which
        // this scan would read as part of a key: any non-ASCII key counts as a possible override.
        if (key.isEmpty || key.contains('"') || key == "include" || key.startsWith("include") || key.exists(_ > '\u007f')) return true
        val path = frames.head ++ key.split('.').toList
        if (path.exists(_.isEmpty)) return true
        if (paths.exists(path.startsWith(_))) return true
        skipSpaceAndComments(stopAtNewline = true)
        if (i < n && text.charAt(i) == '+' && i + 1 < n && text.charAt(i + 1) == '=') i += 2
        else if (i < n && (text.charAt(i) == '=' || text.charAt(i) == ':')) i += 1
        skipSpaceAndComments(stopAtNewline = true)
        if (i < n && text.charAt(i) == '{') { frames = path :: frames; i += 1 }
        // A key above one asked about, set as a whole to a value (a substitution, null).
        else if (paths.exists(_.startsWith(path))) return true
        else if (!skipValue()) return true
      }
    }
    true
  }
}
