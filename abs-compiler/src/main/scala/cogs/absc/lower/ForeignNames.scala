package cogs.absc.lower

/**
 * The names under which the JVM implements a model's own `def T f(..) = builtin;`, those of the
 * reference toolchain's Java backend: in the Java package named as the ABS module (`Geo.Shapes`),
 * the class named as the function with `_f` appended (`area_f`), whose `public static apply(..)`
 * takes the function's arguments; a function named as a Java keyword or as a method every Java
 * object has gets `__` before the `_f` (`int___f`, `hashCode___f`), as the reference escapes them.
 */
object ForeignNames {

  private val Escaped: Set[String] = Set(
    "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
    "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
    "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
    "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
    "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "abs",
    // methods of java.lang.Object, which the reference's generated classes inherit
    "equals", "hashCode", "toString", "getClass", "notify", "notifyAll", "wait")

  /** The fully qualified Java class of builtin function `name` of ABS module `module`. */
  def builtinClass(module: String, name: String): String =
    s"$module.${if (Escaped(name)) name + "__" else name}_f"
}
