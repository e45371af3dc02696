package absmodel

/**
 * An ABS exception as absc emits one (`exception Refused(String reason);`), in the package of
 * generated models, which is what the value serializer admits: the distributed tests throw it on
 * one node and catch it by its type on another.
 */
final case class Refused(reason: String) extends cogs.absc.lib.AbsException
