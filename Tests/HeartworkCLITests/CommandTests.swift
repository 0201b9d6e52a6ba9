import ArgumentParser
import Foundation
import HeartworkCore
import HeartworkTestSupport
import Testing

@testable import HeartworkCLI

@Suite("heartwork commands, in process")
struct CommandTests {
    private func render<Command: ParsableCommand>(_ type: Command.Type, _ arguments: [String]) throws -> String {
        let command = try #require(try HeartworkCommand.parseAsRoot(arguments) as? Command)
        switch command {
        case let zones as ZonesCommand: return try zones.render()
        case let calories as CaloriesCommand: return try calories.render()
        case let compete as CompeteCommand: return try compete.render()
        case let encode as HRMEncodeCommand: return try encode.render()
        case let nutrition as NutritionCommand: return try nutrition.render()
        case let label as FoodLabelCommand: return try label.render()
        default:
            Issue.record("no renderer for \(Command.self)")
            return ""
        }
    }

    @Test func foodLabelReadsALabelFromAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("label-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try "Nutrition Facts\nServing size 1 bar (40g)\nCalories 190\nSaturated Fat 4.5g 23%\nSodium 120mg\nProtein 3g\n".write(to: file, atomically: true, encoding: .utf8)
        let table = try render(FoodLabelCommand.self, ["food-label", file.path])
        #expect(table.contains("Calories       190 kcal") && table.contains("Unhealthy:") && table.contains("saturated fat 4.5 g"))
        let json = try render(FoodLabelCommand.self, ["food-label", file.path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["calories"] as? Double == 190 && object["unhealthy"] as? Bool == true && object["sodiumMilligrams"] as? Double == 120)
        try "just words".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: CommandFailure.self) { try render(FoodLabelCommand.self, ["food-label", file.path]) }
    }

    /// Golden: seed-000 digest §3.5 worked example.
    @Test func zonesJSONCarriesTheFiveThresholds() throws {
        let json = try render(ZonesCommand.self, ["zones", "--age", "24", "--resting-hr", "65", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["thresholdsBPM"] as? [Double] == [140.492, 153.074, 165.656, 178.238, 190.82])
        #expect(object["maximumHeartRateFormula"] as? String == "gellish")
        #expect(json.contains("140.492,") && !json.contains("140.49200000"))
    }

    /// Golden: seed-002 digest §3.2 worked examples (TEE 3213.578 and 2156.0367 kcal).
    @Test func nutritionGoldenValuesInJSONAndTable() throws {
        let json = try render(
            NutritionCommand.self,
            [
                "nutrition", "--sex", "male", "--age", "25", "--height-m", "1.80", "--weight-kg", "80",
                "--lifestyle", "active", "--goal", "mass-gain", "--format", "json",
            ])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["totalEnergyExpenditure"] as? Double == 3213.578)
        #expect(object["calories"] as? Double == 3695.6147)
        #expect(object["proteinGrams"] as? Int == 277 && object["carbohydrateGrams"] as? Int == 508 && object["fatGrams"] as? Int == 61)
        let table = try render(
            NutritionCommand.self,
            [
                "nutrition", "--sex", "female", "--age", "30", "--height-m", "1.65", "--weight-kg", "60",
                "--lifestyle", "Low active", "--goal", "muscle-maintenance",
            ])
        #expect(table.contains("2156.0 kcal/day") && table.contains("PA 1.14"))
        #expect(throws: (any Error).self) {
            try render(
                NutritionCommand.self, ["nutrition", "--sex", "male", "--age", "25", "--height-m", "180", "--weight-kg", "80", "--lifestyle", "active", "--goal", "mass-gain"])
        }
        #expect(throws: (any Error).self) {
            try HeartworkCommand.parseAsRoot(["nutrition", "--sex", "male", "--age", "25", "--height-m", "1.8", "--weight-kg", "80", "--lifestyle", "lazy", "--goal", "mass-gain"])
        }
    }

    @Test func zonesTableAndFormulas() throws {
        let table = try render(ZonesCommand.self, ["zones", "--age", "24", "--resting-hr", "65", "--max-hr-formula", "fox"])
        #expect(table.contains("196 bpm (fox)"))
        #expect(table.contains("143.600"))
        let measured = try render(ZonesCommand.self, ["zones", "--resting-hr", "50", "--max-hr", "190"])
        #expect(measured.contains("190 bpm (measured)"))
    }

    @Test func zonesRejectsImpossibleProfiles() throws {
        #expect(throws: (any Error).self) { try render(ZonesCommand.self, ["zones", "--age=-4", "--resting-hr", "65"]) }
        #expect(throws: (any Error).self) { try render(ZonesCommand.self, ["zones", "--age", "30", "--resting-hr", "195"]) }
        #expect(throws: (any Error).self) {
            try render(ZonesCommand.self, ["zones", "--age", "30", "--resting-hr", "60", "--max-hr-formula", "measured"])
        }
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["zones", "--age", "30", "--resting-hr", "60", "--max-hr-formula", "astrology"]) }
    }

    @Test func hrmDecodeReportsEachPacket() throws {
        let command = try #require(try HeartworkCommand.parseAsRoot(["hrm", "decode", "16480004", "1948", "18 50 E8 03 00 04"]) as? HRMDecodeCommand)
        let result = try command.decodeAll()
        #expect(
            try result.render(format: .table) == """
                16480004: 72 bpm, contact detected, RR [1000.0 ms]
                1850E8030004: 80 bpm, contact not supported, energy 1000 kJ, RR [1000.0 ms]
                """)
        #expect(result.failures.count == 1)
        #expect(result.failures[0].contains("byte offset 1"))
    }

    @Test func hrmDecodeReadsFilesAndNamesTheLine() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("# capture\n16480004\n\n5A\n", to: "packets.txt")
        let command = try #require(try HeartworkCommand.parseAsRoot(["hrm", "decode", "--file", path, "--format", "json"]) as? HRMDecodeCommand)
        let result = try command.decodeAll()
        #expect(result.records.count == 1)
        #expect(result.failures == ["\(path) line 4 (5A): truncated at byte offset 1: the flags announce an 8-bit heart rate (1 byte) but no bytes remain"])
    }

    @Test func hrmEncode() throws {
        #expect(try render(HRMEncodeCommand.self, ["hrm", "encode", "--bpm", "72", "--rr", "1000", "--contact", "detected"]) == "16480004")
        #expect(try render(HRMEncodeCommand.self, ["hrm", "encode", "--bpm", "300"]) == "012C01")
        #expect(throws: (any Error).self) { try render(HRMEncodeCommand.self, ["hrm", "encode", "--bpm", "72", "--rr", "90000"]) }
    }

    /// Golden: seed-000 §3.4 worked example (hand-checked in EnergyTests).
    @Test func caloriesForTheWorkedExample() throws {
        let text = try render(CaloriesCommand.self, ["calories", "--sex", "male", "--weight-kg", "70", "--age", "24", "--avg-hr", "150", "--minutes", "30"])
        #expect(text.hasPrefix("Energy  417.98 kcal"))
        let json = try render(CaloriesCommand.self, ["calories", "--sex", "female", "--weight-kg", "70", "--age", "24", "--avg-hr", "150", "--minutes", "30", "--format", "json"])
        #expect(json.contains("\"kilocalories\" : 284.03"))
        let pounds = try render(CaloriesCommand.self, ["calories", "--sex", "male", "--weight-lb", "154.324", "--age", "24", "--avg-hr", "150", "--minutes", "30"])
        #expect(pounds.hasPrefix("Energy  417.98 kcal"))
        #expect(throws: (any Error).self) { try render(CaloriesCommand.self, ["calories", "--sex", "male", "--age", "24", "--avg-hr", "150", "--minutes", "30"]) }
        #expect(throws: (any Error).self) {
            try HeartworkCommand.parseAsRoot(["calories", "--sex", "robot", "--weight-kg", "70", "--age", "24", "--avg-hr", "150", "--minutes", "30"])
        }
    }

    @Test func competeScoresTwoFiles() throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("second,bpm\n" + (0..<60).map { "\($0),160" }.joined(separator: "\n"), to: "a.csv")
        let b = try directory.write((0..<60).map { "\($0),145" }.joined(separator: "\n"), to: "b.csv")
        let arguments = ["compete", a, b, "--a-age", "24", "--a-resting-hr", "65", "--b-age", "24", "--b-resting-hr", "65"]
        let table = try render(CompeteCommand.self, arguments)
        #expect(table.contains("A wins by 46 s"))
        let json = try render(CompeteCommand.self, arguments + ["--format", "json", "--events"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "a")
        #expect(object["marginSeconds"] as? Int == 46)
        let events = try #require(object["events"] as? [[String: Any]])
        #expect(events.first?["announcementForB"] as? String == "Your opponent moved up to Moderate; you are in Low")
    }

    /// A ghost race lasts as long as the recording (PRODUCT.md, seed-000 §3.9): side A's
    /// longer file is cut to side B's 40 s, where without --ghost the longer file wins.
    @Test func competeLocksAGhostToItsRecordingsLength() throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write((0..<90).map { "\($0),160" }.joined(separator: "\n"), to: "a.csv")
        let b = try directory.write((0..<40).map { "\($0),145" }.joined(separator: "\n"), to: "ghost.csv")
        let arguments = ["compete", a, b, "--a-age", "24", "--a-resting-hr", "65", "--b-age", "24", "--b-resting-hr", "65", "--format", "json"]
        func read(_ extra: [String]) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(try render(CompeteCommand.self, arguments + extra).utf8)) as? [String: Any])
        }
        let ghost = try read(["--ghost"])
        let plain = try read([])
        #expect(ghost["durationSeconds"] as? Int == 40)
        #expect(plain["durationSeconds"] as? Int == 90)
        // A is confirmed in moderate, B in low, from second 14: 26 points in 40 s; 76 in 90 s.
        #expect((ghost["a"] as? [String: Any])?["score"] as? Int == 26)
        #expect((plain["a"] as? [String: Any])?["score"] as? Int == 76)
    }

    @Test func competeNamesTheBadLine() throws {
        let directory = try TemporaryDirectory()
        let a = try directory.write("0,150\n1,fast\n", to: "a.csv")
        let b = try directory.write("0,150\n", to: "b.csv")
        do {
            _ = try render(CompeteCommand.self, ["compete", a, b, "--a-age", "24", "--a-resting-hr", "65", "--b-age", "24", "--b-resting-hr", "65"])
            Issue.record("a non-numeric bpm must fail")
        } catch {
            #expect("\(error)" == "\(a): line 2: bpm 'fast' is not a number")
        }
    }
}

@Suite("heartwork hrv")
struct HRVCommandTests {
    private func command(_ arguments: [String]) throws -> HRVCommand {
        try #require(try HeartworkCommand.parseAsRoot(["hrv"] + arguments) as? HRVCommand)
    }

    private func recording(in directory: TemporaryDirectory, name: String = "rest.txt", minutes: Double = 6) throws -> String {
        let simulate = try #require(try HeartworkCommand.parseAsRoot(["simulate", "--minutes", "\(minutes)", "--seed", "3", "--artifact-rate", "0.02"]) as? SimulateRRCommand)
        return try directory.write(simulate.render(), to: name)
    }

    @Test func tableJSONAndCSV() throws {
        let directory = try TemporaryDirectory()
        let file = try recording(in: directory)
        let hrv = try command([file])
        let analysed = try hrv.analyse(file)
        let table = try hrv.render([analysed.report])
        for heading in ["Time domain", "RMSSD", "Frequency domain (Welch", "LF/HF ratio", "Nonlinear", "Sample entropy", "kubios correction"] {
            #expect(table.contains(heading), "table lacks \(heading)")
        }
        let json = try command([file, "--format", "json"]).render([analysed.report])
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        let time = try #require(parsed.first?["timeDomain"] as? [String: Any])
        #expect((time["rmssd"] as? Double).map { abs($0 - (analysed.report.timeDomain?.rmssd ?? 0)) < 1e-9 } == true)
        let correction = try #require(parsed.first?["correction"] as? [String: Any])
        #expect(correction["method"] as? String == "kubios")
        #expect((correction["artifacts"] as? [Any])?.isEmpty == false)
    }

    /// Issue 41: what the reader leaves out is said in the report (a PPI file's blocked
    /// interval and its error-estimate artifact), in the table and in the JSON.
    @Test func rowsLeftOutByTheReaderAreInTheReport() throws {
        let directory = try TemporaryDirectory()
        var rows = ["Phone timestamp;PP-interval [ms];error estimate [ms];blocker;contact;contact;hr [bpm]"]
        for i in 0..<300 {
            let rr = 850 + Int(60 * sin(Double(i) / 4))
            rows.append("2026-06-04T07:\(String(format: "%02d:%02d", i * 850 / 60_000, i * 850 / 1000 % 60)).000;\(rr);\(i == 40 ? 200 : 6);\(i == 10 ? 1 : 0);1;1;70")
        }
        let file = try directory.write(rows.joined(separator: "\n") + "\n", to: "verity_PPI.txt")
        let hrv = try command([file])
        let report = try hrv.analyse(file).report
        #expect(report.beats == 298)
        #expect(report.warnings.contains { $0.hasPrefix("line 12: ") && $0.contains("blocker 1") }, "\(report.warnings)")
        #expect(report.warnings.contains { $0.hasPrefix("line 42: ") && $0.contains("error estimate") }, "\(report.warnings)")
        #expect(try hrv.render([report]).contains("Warning: line 12: "))
    }

    @Test func windowedCSVHasARowPerWindow() throws {
        let directory = try TemporaryDirectory()
        let file = try recording(in: directory, minutes: 20)
        let hrv = try command([file, "--window", "300", "--format", "csv"])
        let csv = try hrv.render([hrv.analyse(file).report])
        let lines = csv.split(separator: "\n")
        #expect(lines.first?.hasPrefix("file,window_start_s,duration_s,beats") == true)
        #expect(lines.count == 1 + 4 || lines.count == 1 + 5)  // 20 minutes: four full windows and maybe a sliver
        #expect(lines[2].split(separator: ",", omittingEmptySubsequences: false)[1] == "300.0")
        #expect(lines.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false).count == HRVCSV.columns.count })
    }

    @Test func reportSVGIsWritten() throws {
        let directory = try TemporaryDirectory()
        let file = try recording(in: directory)
        let hrv = try command([file, "--report", directory.url.appendingPathComponent("r.svg").path])
        let analysed = try hrv.analyse(file)
        #expect(analysed.svg.hasPrefix("<svg"))
        #expect(analysed.svg.contains("Poincaré plot"))
    }

    @Test func correctionAndSpectrumOptions() throws {
        let directory = try TemporaryDirectory()
        let file = try recording(in: directory)
        let fitlab = try command([file, "--correct", "fitlab", "--spectrum", "fitlab"]).analyse(file).report
        #expect(fitlab.correction.method == "fitlab")
        #expect(fitlab.frequencyDomain?.method == .fitlab)
        let none = try command([file, "--correct", "none", "--spectrum", "lomb"]).analyse(file).report
        #expect(none.correction.artifacts.isEmpty)
        #expect(none.frequencyDomain?.method == .lombScargle)
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["hrv", file, "--correct", "magic"]) }
        #expect(throws: (any Error).self) { try HeartworkCommand.parseAsRoot(["hrv", file, "--window", "-5"]) }
    }

    @Test func badFilesFailWithTheLine() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write("812\nabc\ndef\n", to: "bad.txt")
        #expect(throws: (any Error).self) { try command([text]).analyse(text) }
        do {
            _ = try command([text]).analyse(text)
        } catch {
            #expect("\(error)" == "1 RR interval found; at least 2 are needed")
        }
        let empty = try directory.write("", to: "empty.txt")
        #expect(throws: (any Error).self) { try command([empty]).analyse(empty) }
    }
}
