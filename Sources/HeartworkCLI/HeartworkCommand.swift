import ArgumentParser

/// The `heartwork` command line: one small command per job, each a thin adapter over
/// HeartworkCore and HeartworkFormats.
public struct HeartworkCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "heartwork",
        abstract: "Heart-rate training tools: zones, Bluetooth HRM packets, calories, challenges.",
        discussion: """
            Heartwork is a self-hosted heart-rate training platform. These commands work on \
            files and values without a server.

            Examples:
              heartwork zones --age 24 --resting-hr 65
              heartwork hrm decode 16480004
              heartwork calories --sex male --weight-kg 70 --age 24 --avg-hr 150 --minutes 30
              heartwork compete me.csv friend.csv --a-age 24 --a-resting-hr 65 --b-age 31 --b-resting-hr 58
              heartwork inspect ride.fit
              heartwork convert ride.fit ride.gpx
              heartwork import ~/GarminExport --server http://127.0.0.1:8080 --token "$TOKEN"
              heartwork food-label label.txt
              heartwork heart-rate --last 24h --server http://127.0.0.1:8080 --token "$TOKEN"
              heartwork gateway --server http://127.0.0.1:8080 --token hwg_… --strap A0:9E:1A:12:34:56
            """,
        subcommands: [
            ZonesCommand.self,
            HRMCommand.self,
            CaloriesCommand.self,
            NutritionCommand.self,
            FoodLabelCommand.self,
            CompeteCommand.self,
            HRVCommand.self,
            InspectCommand.self,
            ConvertCommand.self,
            ImportCommand.self,
            DayCommand.self,
            HeartRateCommand.self,
            SimulateCommand.self,
            GatewayCommand.self,
            ServeCommand.self,
        ]
    )

    public init() {}
}

extension HeartworkCommand {
    /// Entry point for the executable. Calling the async `main` from an async function makes
    /// the async overload win over `ParsableCommand`'s synchronous one.
    public static func runAsEntryPoint() async {
        await main(nil)
    }
}
