package cogs.distributed

import com.fasterxml.jackson.annotation.JsonIgnoreProperties
import com.fasterxml.jackson.databind.module.SimpleModule

/**
 * Lets Pekko's Jackson serializers take a user's exception marked [[Wire]] (the failure of a
 * remote call). Pekko's object mapper sees every field (its `visibility { FIELD = ANY }`), so for
 * an exception it reached for `Throwable`'s private fields (`detailMessage`, `cause`, ...), which
 * Java 17's module system does not open: the mapper could not serialise any exception, and every
 * `Wire` exception arrived as a `RemoteCallException`. Mixed into `Throwable`, this leaves those
 * fields out, and with them the cause, the stack trace and the suppressed exceptions (the caller
 * gets where it was thrown as a suppressed `RemoteCallException`); the message goes through the
 * public `getMessage` and comes back through a constructor of one String (Java's convention) or
 * the class's own properties (a Scala case class). Added to
 * `pekko.serialization.jackson.jackson-modules` by `Node.start`.
 */
final class ThrowableModule extends SimpleModule("cogs-throwable") {
  setMixInAnnotation(classOf[Throwable], classOf[ThrowableModule.ThrowableMixIn])
}

private object ThrowableModule {
  @JsonIgnoreProperties(Array("detailMessage", "cause", "stackTrace", "suppressedExceptions", "localizedMessage", "suppressed"))
  abstract class ThrowableMixIn
}
