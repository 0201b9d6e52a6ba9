import HeartworkCLI

await HeartworkCommand.runAsEntryPoint()
