import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Daily health (issue 11; docs/DAILY-HEALTH.md; the OpenAPI document's tag "daily"):
/// Apple Health imports and their progress, the per-day metrics, sleep ratings and marks.
struct DailyRoutes {
    let services: HeartworkServices
    var daily: DailyHealthService { services.daily }

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.get("health/settings", use: getHealthSettings)
        api.put("health/settings", use: putHealthSettings)

        // The raw export as the body: application/zip (export.zip) or application/xml (export.xml).
        api.post("imports/apple-health", use: postImportsAppleHealth)
        // Gadgetbridge's exported database (an SQLite file) as the body, any media type.
        api.post("imports/gadgetbridge", use: postImportsGadgetbridge)
        api.get("imports", use: getImports)
        api.get("imports/:importID", use: getImportsImportID)

        // A nutrition label: its text (text/plain) or a photo (image/…, read by Tesseract when installed).
        api.post("food-label", use: postFoodLabel)
        api.get("days", use: getDays)
        api.get("days/:date", use: getDaysDate)
        api.put("days/:date/sleep-quality", use: putDaysDateSleepQuality)
        api.put("days/:date/sleep-time", use: putDaysDateSleepTime)
        api.delete("days/:date/sleep-time", use: deleteDaysDateSleepTime)
        api.put("days/:date/mark", use: putDaysDateMark)
        api.get("heart-rate", use: getHeartRate)
    }

    /// GET /api/heart-rate
    func getHeartRate(_ request: Request, context: AuthenticatedContext) async throws -> HeartRateResponse {
        let parameters = request.uri.queryParameters
        guard let from = try QueryParameters.date(parameters.get("from"), name: "from") else {
            throw Problem.badRequest("from is required: a date-time such as 2026-11-24T08:00:00Z", field: "from")
        }
        let to = try QueryParameters.date(parameters.get("to"), name: "to") ?? Date()
        var resolution: HeartRateRange.Resolution?
        if let text = parameters.get("resolution") {
            guard let value = HeartRateRange.Resolution(rawValue: text) else { throw Problem.badRequest("resolution is second, minute or hour", field: "resolution") }
            resolution = value
        }
        do {
            let range = try await daily.heartRate(for: context.user, from: from, to: to, resolution: resolution)
            return HeartRateResponse(range: range, resolution: HeartRateRange.Resolution.allCases.first { $0.seconds == range.bucketSeconds } ?? .minute)
        } catch let error as AppError where error.kind == .invalid {
            // A query that asks for too much is a malformed request (400), as QueryParameters' mistakes are.
            throw Problem.badRequest(error.detail, field: error.field)
        }
    }

    /// POST /api/imports/apple-health
    func postImportsAppleHealth(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = OneShotBody(request.body)
        let record: HealthImportRecord
        do {
            let format = try Self.importFormat(request)
            record = try await daily.importExport(body.map(\.readableBytesView), format: format, for: context.user)
        } catch {
            // Refused (415, 429, 422, …) with the body not read to its end: the rest is
            // read and dropped, never stored, so a client that sends the whole body before
            // it reads sees this answer, not a broken connection.
            try? await body.discardRest()
            throw error
        }
        var answer = try APIJSON.response(HealthImportResponse(record), status: .accepted)
        answer.headers[.location] = "/api/imports/\(record.id)"
        return answer
    }

    /// GET /api/imports
    func getImports(_ request: Request, context: AuthenticatedContext) async throws -> HealthImportListResponse {
        HealthImportListResponse(imports: try await daily.imports(for: context.user).map(HealthImportResponse.init))
    }

    /// GET /api/imports/:importID
    func getImportsImportID(_ request: Request, context: AuthenticatedContext) async throws -> HealthImportResponse {
        HealthImportResponse(try await daily.importStatus(try context.parameters.require("importID"), for: context.user))
    }

    /// POST /api/food-label
    func postFoodLabel(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let type = RequestBody.mediaType(request) ?? ""
        guard type.hasPrefix("text/") || type.hasPrefix("image/") else {
            throw Problem(
                .unsupportedMediaType, "Unsupported media type",
                detail: "send the label's text as text/plain or a photo as image/jpeg or image/png\(type.isEmpty ? " (the Content-Type is missing)" : ", not \(type)")"
            )
            .withMessage("Upload a photo of the label (JPEG or PNG), or type its text.")
        }
        let bytes = try await RequestBody.bytes(request, limit: LabelReader.maximumImageBytes)
        if type.hasPrefix("image/"), !LabelReader.isImage(bytes) {
            throw Problem(AppError.invalid("the body is not a PNG, JPEG, TIFF, BMP, GIF or WebP image", field: nil))
        }
        if type.hasPrefix("text/"), LabelReader.isImage(bytes) {
            throw Problem(AppError.invalid("the body is an image: send it as image/…", field: nil))
        }
        let label: NutritionLabel
        do {
            label = try await LabelReader.label(from: bytes)
        } catch let failure as LabelReader.Failure {
            if case .noOCR = failure { throw Problem(AppError(.unavailable, failure.description)) }
            throw Problem(AppError.invalid(failure.description, field: nil))
        }
        return try APIJSON.response(label)
    }

    /// GET /api/days
    func getDays(_ request: Request, context: AuthenticatedContext) async throws -> DayListResponse {
        let parameters = request.uri.queryParameters
        let from = try QueryParameters.day(parameters.get("from"), name: "from")
        let to = try QueryParameters.day(parameters.get("to"), name: "to")
        return DayListResponse(days: try await daily.days(from: from, through: to, for: context.user))
    }

    /// GET /api/days/:date
    func getDaysDate(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let day = try QueryParameters.day(context.parameters.get("date"), name: "date")
        return try APIJSON.response(try await daily.day(day, for: context.user))
    }

    /// PUT /api/days/:date/sleep-quality
    func putDaysDateSleepQuality(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let day = try QueryParameters.day(context.parameters.get("date"), name: "date")
        let body = try await RequestBody.jsonObject(request, allowed: ["quality"])
        return try APIJSON.response(try await daily.setSleepQuality(try body.integer("quality"), day: day, for: context.user))
    }

    /// PUT /api/days/:date/sleep-time
    func putDaysDateSleepTime(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let day = try QueryParameters.day(context.parameters.get("date"), name: "date")
        let body = try await RequestBody.jsonObject(request, allowed: ["bedTime", "wakeTime"])
        let bed = try InputParsing.minuteOfDay(try body.string("bedTime"), field: "bedTime")
        let wake = try InputParsing.minuteOfDay(try body.string("wakeTime"), field: "wakeTime")
        return try APIJSON.response(try await daily.setSleepTime(bedMinute: bed, wakeMinute: wake, day: day, for: context.user))
    }

    /// DELETE /api/days/:date/sleep-time
    func deleteDaysDateSleepTime(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let day = try QueryParameters.day(context.parameters.get("date"), name: "date")
        return try APIJSON.response(try await daily.clearSleepTime(day: day, for: context.user))
    }

    /// PUT /api/days/:date/mark
    func putDaysDateMark(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let day = try QueryParameters.day(context.parameters.get("date"), name: "date")
        let body = try await RequestBody.jsonObject(request, allowed: ["mark"])
        guard body.contains("mark") else { throw Problem.badRequest("mark is required: sick, traveling or null", field: "mark") }
        let mark = try InputParsing.dayMark(try body.optionalString("mark"), field: "mark")
        return try APIJSON.response(try await daily.setMark(mark, day: day, for: context.user))
    }

    /// GET /api/health/settings
    func getHealthSettings(_ request: Request, context: AuthenticatedContext) async throws -> HealthSettingsResponse {
        HealthSettingsResponse(try await daily.settings(for: context.user))
    }

    /// PUT /api/health/settings
    func putHealthSettings(_ request: Request, context: AuthenticatedContext) async throws -> HealthSettingsResponse {
        let body = try await RequestBody.jsonObject(
            request,
            allowed: [
                "stepThreshold", "inactivityTime", "inactivityAlerts", "anomalyAlerts", "order", "bandSD", "consecutive", "intervalMinutes", "sourceOrder",
            ])
        var settings = try await daily.settings(for: context.user)
        if let value = try body.optionalInteger("stepThreshold") { settings.stepThreshold = value }
        if let text = try body.optionalString("inactivityTime") { settings.inactivityMinute = try InputParsing.minuteOfDay(text, field: "inactivityTime") }
        if let value = try body.optionalBool("inactivityAlerts") { settings.inactivityAlerts = value }
        if let value = try body.optionalBool("anomalyAlerts") { settings.anomalyAlerts = value }
        if let value = try body.optionalInteger("order") { settings.order = value }
        if let value = try body.optionalDouble("bandSD") { settings.bandSD = value }
        if let value = try body.optionalInteger("consecutive") { settings.consecutive = value }
        if let value = try body.optionalInteger("intervalMinutes") { settings.intervalMinutes = value }
        if let list = try body.optionalArray("sourceOrder") {
            settings.sourceOrder = try list.enumerated().map { i, v throws(JSONFieldError) in try JSONObjectReader.string(v, "sourceOrder[\(i)]") }
        }
        return HealthSettingsResponse(try await daily.updateSettings(settings, for: context.user))
    }

    /// "HH:MM" → minutes after midnight.
    static func importFormat(_ request: Request) throws -> DailyHealthService.ExportFormat {
        let bare = RequestBody.mediaType(request)
        switch bare {
        case "application/zip", "application/x-zip-compressed": return .zip
        case "application/xml", "text/xml": return .xml
        default:
            throw Problem(
                .unsupportedMediaType, "Unsupported media type",
                detail: "send the Health app's export.zip as application/zip, or its export.xml as application/xml\(bare.map { ", not \($0)" } ?? " (the Content-Type is missing)")"
            )
            .withMessage("Upload the export.zip that the Health app makes (Health → your picture → Export All Health Data), or the export.xml inside it.")
        }
    }
}

struct HealthImportResponse: ResponseEncodable {
    let id: String
    let state: String
    let format: String
    let bytesTotal: Int64
    let bytesDone: Int64
    /// 0…1 of the export read.
    let progress: Double
    let samplesRead: Int64
    let samplesAdded: Int64
    let workoutsAdded: Int
    let workoutsDuplicate: Int
    struct Skipped: Encodable {
        let reason: String
        let count: Int
    }

    /// The export's workouts not stored, and why.
    let workoutsSkipped: [Skipped]
    /// What the owner's birth date and sex and the body samples did (`BodyUpdate`).
    struct Body: Encodable {
        let profileFilled: [String]
        let weightsAdded: Int
        let heightsAdded: Int
        let alreadyStored: Int
        let leftOut: [Skipped]
    }

    let body: Body
    /// Records of types the import does not read, by type.
    let recordsSkipped: [String: Int]
    /// Gadgetbridge: what was read, by device and kind ("Amazfit Bip: heart rate": 1440).
    let read: [String: Int]
    /// Gadgetbridge: tables, devices and values not understood, with their rows.
    let notUnderstood: [String: Int]
    let firstDay: String?
    let lastDay: String?
    let error: String?
    let createdAt: Date
    let finishedAt: Date?

    init(_ r: HealthImportRecord) {
        id = r.id
        state = r.state.rawValue
        format = r.format
        bytesTotal = r.bytesTotal
        bytesDone = r.bytesDone
        progress = r.state == .done ? 1 : r.bytesTotal > 0 ? (min(1, Double(r.bytesDone) / Double(r.bytesTotal)) * 1000).rounded() / 1000 : 0
        samplesRead = r.samplesRead
        samplesAdded = r.samplesAdded
        workoutsAdded = r.workoutsAdded
        workoutsDuplicate = r.workoutsDuplicate
        workoutsSkipped = r.workoutsSkipped.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { Skipped(reason: $0.key, count: $0.value) }
        body = Body(
            profileFilled: r.body.profileFilled, weightsAdded: r.body.weightsAdded, heightsAdded: r.body.heightsAdded,
            alreadyStored: r.body.alreadyStored,
            leftOut: r.body.leftOut.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { Skipped(reason: $0.key, count: $0.value) })
        recordsSkipped = r.recordsSkipped
        read = r.read
        notUnderstood = r.notUnderstood
        firstDay = r.firstDay?.description
        lastDay = r.lastDay?.description
        error = r.error
        createdAt = r.createdAt
        finishedAt = r.finishedAt
    }
}

struct HealthImportListResponse: ResponseEncodable {
    let imports: [HealthImportResponse]
}

struct DayListResponse: ResponseEncodable {
    let days: [DailySummary]
}

struct HealthSettingsResponse: ResponseEncodable {
    let stepThreshold: Int
    let inactivityTime: String
    let inactivityAlerts: Bool
    let anomalyAlerts: Bool
    let order: Int
    let bandSD: Double
    let consecutive: Int
    let intervalMinutes: Int
    let sourceOrder: [String]

    init(_ s: HealthSettingsRecord) {
        stepThreshold = s.stepThreshold
        inactivityTime = String(format: "%02d:%02d", s.inactivityMinute / 60, s.inactivityMinute % 60)
        inactivityAlerts = s.inactivityAlerts
        anomalyAlerts = s.anomalyAlerts
        order = s.order
        bandSD = s.bandSD
        consecutive = s.consecutive
        intervalMinutes = s.intervalMinutes
        sourceOrder = s.sourceOrder
    }
}
