package cogs.absc.driver

/**
 * absc with the fake back end of the tests, for trying the command and its timing by hand before
 * the real emitter exists: `java -cp target/test-classes:... cogs.absc.driver.FakeMain run hello.abs`
 * (the program is chosen by the file's base name, see [[DriverTestSupport.programs]]).
 */
object FakeMain {
  def main(args: Array[String]): Unit = {
    val status = Main.run(args, backend = new FakeBackend(DriverTestSupport.programs))
    cogs.absc.lib.Out.flush()
    System.exit(status)
  }
}
