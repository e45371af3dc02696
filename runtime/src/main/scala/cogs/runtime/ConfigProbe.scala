package cogs.runtime

import java.net.URL
import java.nio.charset.StandardCharsets

/**
 * Whether anything could override the runtime's defaults, decided without loading Typesafe Config
 * (about 140 classes and a parse: some 95 ms of the cold start of an ABS model on JDK 17, for a
 * runtime that nearly always runs on its defaults). `CogRuntime()` loads the configuration only
 * when [[mayOverride]] says so; its answer may be a false alarm (then Config is loaded, as
 * before), never a miss for what `ConfigFactory.load()` reads:
 *  - system properties: any `cogs.*` key, and `config.resource`/`config.file`/`config.url` (they
 *    replace `application.conf`) and `config.override_with_env_vars` (environment overrides);
 *  - `application.conf`/`.json`/`.properties` anywhere on the class path, and the `.json` and
 *    `.properties` forms of `reference`;
 *  - a `reference.conf` other than the runtime's own that may set one of the runtime's keys
 *    (`cogs.executor`, `cogs.throughput`, `cogs.on-fatal-error`, `cogs.shutdown-timeout`, or
 *    `cogs` as a whole), judged by [[mayTouchRuntimeKeys]]. The monitor's and the distributed
 *    module's `reference.conf` (keys under `cogs.monitor`, `cogs.distributed`) do not.
 */
private[runtime] object ConfigProbe {

  /** The runtime's own keys under `cogs` (see reference.conf); the defaults are in `Settings.defaults`. */
  private val RuntimeKeys = Set("executor", "throughput", "on-fatal-error", "shutdown-timeout")

  def mayOverride(loader: ClassLoader): Boolean = {
    val props = System.getProperties.stringPropertyNames.iterator()
    while (props.hasNext) {
      val k = props.next()
      if (k.startsWith("cogs.") || k == "config.resource" || k == "config.file" || k == "config.url" ||
          k == "config.override_with_env_vars") return true
    }
    val others = List("application.conf", "application.json", "application.properties", "reference.json", "reference.properties")
    if (others.exists(r => loader.getResource(r) ne null)) return true
    val own = ownReference
    val refs = loader.getResources("reference.conf")
    while (refs.hasMoreElements) {
      val u = refs.nextElement()
      if ((own eq null) || u.toString != own) {
        val text =
          try new String(read(u), StandardCharsets.UTF_8)
          catch { case _: java.io.IOException => return true } // Config would fail on it too: let it say so
        if (mayTouchRuntimeKeys(text)) return true
      }
    }
    false
  }

  /** The address of the runtime's own reference.conf: next to its classes, in its jar or directory. */
  private def ownReference: String = {
    val c = classOf[CogRuntime].getResource("CogRuntime.class")
    if (c eq null) return null
    val s = c.toString
    val suffix = "cogs/runtime/CogRuntime.class"
    if (s.endsWith(suffix)) s.substring(0, s.length - suffix.length) + "reference.conf" else null
  }

  private def read(u: URL): Array[Byte] = {
    val c = u.openConnection()
    c.setUseCaches(false) // a cached JarFile would keep the jar open (and locked on Windows)
    val in = c.getInputStream
    try in.readAllBytes() finally in.close()
  }

  /**
   * False only if this HOCON text certainly sets no key of the runtime: it follows the text's
   * objects, with their paths, and checks each key it meets at the top or in objects (arrays and
   * values are skipped: keys inside them set no path). Whatever it does not follow (an `include`,
   * a quoted key, braces around the whole file, unbalanced brackets) counts as a possible override.
   */
  def mayTouchRuntimeKeys(text: String): Boolean = {
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

    def sensitive(path: List[String]): Boolean =
      path.nonEmpty && path.head == "cogs" && path.length >= 2 && RuntimeKeys(path(1))

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
        if (key.isEmpty || key.contains('"') || key == "include" || key.startsWith("include")) return true
        val path = frames.head ++ key.split('.').toList
        if (path.exists(_.isEmpty)) return true
        if (sensitive(path)) return true
        skipSpaceAndComments(stopAtNewline = true)
        if (i < n && text.charAt(i) == '+' && i + 1 < n && text.charAt(i + 1) == '=') i += 2
        else if (i < n && (text.charAt(i) == '=' || text.charAt(i) == ':')) i += 1
        skipSpaceAndComments(stopAtNewline = true)
        if (i < n && text.charAt(i) == '{') { frames = path :: frames; i += 1 }
        else if (path == List("cogs")) return true // `cogs` set as a whole to a value (a substitution, null)
        else if (!skipValue()) return true
      }
    }
    true
  }
}
