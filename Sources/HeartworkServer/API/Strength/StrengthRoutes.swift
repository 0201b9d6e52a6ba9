import Foundation
import HeartworkApp
import HeartworkCore
import HeartworkFormats
import HeartworkModel
import Hummingbird

/// Strength coaching and nutrition (issue 12, Pocket PT): docs/STRENGTH.md and the OpenAPI
/// document (tag "strength"). Weights in requests and answers are in the user's unit (kg, or
/// lb for imperial profiles; every answer names it in `unit`); stored in kg.
struct StrengthRoutes {
    let services: HeartworkServices

    var strength: StrengthService { services.strength }

    func routineInput(_ body: JSONObjectReader) throws -> StrengthService.RoutineInput {
        guard let goal = StrengthGoal(rawValue: try body.string("goal")) else {
            throw Problem(AppError.invalid("goal is one of \(StrengthGoal.allCases.map(\.rawValue).joined(separator: ", "))", field: "goal"))
        }
        let ids = try body.array("exercises").enumerated().map { i, v throws(JSONFieldError) in try JSONObjectReader.string(v, "exercises[\(i)]") }
        return .init(name: try body.string("name"), goal: goal, description: try body.optionalString("description") ?? "", exerciseIDs: ids)
    }

    func register(on api: RouterGroup<AuthenticatedContext>) {
        api.get("exercises", use: getExercises)
        api.post("exercises", use: postExercises)
        api.get("exercises/:exerciseID", use: getExercisesExerciseID)
        api.post("exercises/:exerciseID/reset", use: postExercisesExerciseIDReset)

        api.get("routines", use: getRoutines)
        api.post("routines", use: postRoutines)
        api.put("routines/order", use: putRoutinesOrder)
        api.get("routines/:routineID", use: getRoutinesRoutineID)
        api.put("routines/:routineID", use: putRoutinesRoutineID)
        api.delete("routines/:routineID", use: deleteRoutinesRoutineID)

        api.get("strength/suggestion", use: getStrengthSuggestion)
        api.get("strength/settings", use: getStrengthSettings)
        api.put("strength/settings", use: putStrengthSettings)

        api.post("strength/sessions", use: postStrengthSessions)
        api.get("strength/sessions", use: getStrengthSessions)
        api.get("strength/sessions/:sessionID", use: getStrengthSessionsSessionID)
        api.delete("strength/sessions/:sessionID", use: deleteStrengthSessionsSessionID)
        api.put("strength/sessions/:sessionID/sets/:n", use: putStrengthSessionsSessionIDSetsN)
        api.post("strength/sessions/:sessionID/finish", use: postStrengthSessionsSessionIDFinish)
        api.post("strength/import", use: postStrengthImport)
        api.get("strength/imports/:importID", use: getStrengthImportsImportID)

        api.get("nutrition", use: getNutrition)
    }

    /// GET /exercises
    func getExercises(_ request: Request, context: AuthenticatedContext) async throws -> ExerciseListResponse {
        var group: MuscleGroup?
        if let text = request.uri.queryParameters.get("group"), !text.isEmpty, text.lowercased() != "all" {
            guard let found = MuscleGroup.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() }) else {
                throw Problem.badRequest("group is one of \(MuscleGroup.displayOrder.map(\.rawValue).joined(separator: ", ")) or All", field: "group")
            }
            group = found
        }
        let unit = WeightUnit(context.user)
        let bar = try await strength.settings(for: context.user).barKilograms
        return ExerciseListResponse(
            exercises: try await strength.exercises(for: context.user, group: group).map { ExerciseResponse($0, unit: unit, barKilograms: bar) },
            groups: MuscleGroup.displayOrder.map(\.rawValue))
    }

    /// POST /exercises: one of the user's own exercises (issue 25).
    func postExercises(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["name", "group", "equipment", "measure"])
        let groupText = try body.string("group")
        let measureText = try body.optionalString("measure") ?? ExerciseMeasure.reps.rawValue
        guard let measure = ExerciseMeasure(rawValue: measureText) else {
            throw Problem(AppError.invalid("measure is reps or seconds (a hold)", field: "measure"))
        }
        let view = try await strength.createCustomExercise(
            .init(
                name: try body.string("name"), group: MuscleGroup.allCases.first { $0.rawValue.lowercased() == groupText.lowercased() },
                equipment: try body.optionalString("equipment") ?? "other", measure: measure), for: context.user)
        var answer = try APIJSON.response(ExerciseResponse(view, unit: WeightUnit(context.user)), status: .created)
        answer.headers[.location] = "/api/exercises/\(view.exercise.id)"
        return answer
    }

    /// GET /exercises/:exerciseID
    func getExercisesExerciseID(_ request: Request, context: AuthenticatedContext) async throws -> ExerciseDetailResponse {
        let unit = WeightUnit(context.user)
        let (view, progress) = try await strength.exercise(try context.parameters.require("exerciseID"), for: context.user)
        let bar = try await strength.settings(for: context.user).barKilograms
        return ExerciseDetailResponse(
            exercise: ExerciseResponse(view, unit: unit, barKilograms: bar),
            progress: progress.map { .init(sessionID: $0.sessionID, date: $0.date, estimatedOneRepMax: $0.estimatedOneRepMax.map(unit.show)) })
    }

    /// POST /exercises/:exerciseID/reset
    func postExercisesExerciseIDReset(_ request: Request, context: AuthenticatedContext) async throws -> ExerciseResponse {
        let view = try await strength.reset(try context.parameters.require("exerciseID"), for: context.user)
        return ExerciseResponse(view, unit: WeightUnit(context.user), barKilograms: try await strength.settings(for: context.user).barKilograms)
    }

    /// GET /routines
    func getRoutines(_ request: Request, context: AuthenticatedContext) async throws -> RoutineListResponse {
        RoutineListResponse(routines: try await strength.routines(for: context.user).map { RoutineResponse($0) })
    }

    /// POST /routines
    func postRoutines(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["name", "goal", "description", "exercises"])
        let routine = try await strength.createRoutine(try routineInput(body), for: context.user)
        var answer = try APIJSON.response(RoutineResponse(routine), status: .created)
        answer.headers[.location] = "/api/routines/\(routine.template.id)"
        return answer
    }

    /// PUT /routines/order
    func putRoutinesOrder(_ request: Request, context: AuthenticatedContext) async throws -> RoutineListResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["order"])
        let ids = try body.array("order").enumerated().map { i, v throws(JSONFieldError) in try JSONObjectReader.string(v, "order[\(i)]") }
        return RoutineListResponse(routines: try await strength.reorderRoutines(ids, for: context.user).map { RoutineResponse($0) })
    }

    /// GET /routines/:routineID
    func getRoutinesRoutineID(_ request: Request, context: AuthenticatedContext) async throws -> RoutineResponse {
        RoutineResponse(try await strength.routine(try context.parameters.require("routineID"), for: context.user))
    }

    /// PUT /routines/:routineID
    func putRoutinesRoutineID(_ request: Request, context: AuthenticatedContext) async throws -> RoutineResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["name", "goal", "description", "exercises"])
        return RoutineResponse(
            try await strength.updateRoutine(try context.parameters.require("routineID"), try routineInput(body), for: context.user))
    }

    /// DELETE /routines/:routineID
    func deleteRoutinesRoutineID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await strength.deleteRoutine(try context.parameters.require("routineID"), for: context.user)
        return Response(status: .noContent)
    }

    /// GET /strength/suggestion
    func getStrengthSuggestion(_ request: Request, context: AuthenticatedContext) async throws -> SuggestionResponse {
        guard let pick = try await strength.suggestion(for: context.user) else { return SuggestionResponse(routine: nil, reason: nil, overlapping: []) }
        return SuggestionResponse(routine: RoutineResponse(pick.routine), reason: pick.reason, overlapping: pick.overlapping.map(\.rawValue))
    }

    /// GET /strength/settings
    func getStrengthSettings(_ request: Request, context: AuthenticatedContext) async throws -> StrengthSettingsResponse {
        let settings = try await strength.settings(for: context.user)
        return StrengthSettingsResponse(settings, unit: WeightUnit(context.user), deliveries: try await strength.webhookDeliveries(for: context.user))
    }

    /// PUT /strength/settings
    func putStrengthSettings(_ request: Request, context: AuthenticatedContext) async throws -> StrengthSettingsResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["goal", "lifestyle", "plateStepKg", "barKg", "webhookUrl", "acceptDisclaimer", "newWebhookSecret"])
        var changes = StrengthService.SettingsChanges()
        if let text = try body.optionalString("goal") {
            guard let goal = StrengthGoal(rawValue: text) else {
                throw Problem(AppError.invalid("goal is one of \(StrengthGoal.allCases.map(\.rawValue).joined(separator: ", "))", field: "goal"))
            }
            changes.goal = goal
        }
        if let text = try body.optionalString("lifestyle") {
            guard let lifestyle = Lifestyle(rawValue: text) else {
                throw Problem(AppError.invalid("lifestyle is one of \(Lifestyle.allCases.map(\.rawValue).joined(separator: ", "))", field: "lifestyle"))
            }
            changes.lifestyle = lifestyle
        }
        changes.plateStepKilograms = try body.clearable("plateStepKg") { v, p throws(JSONFieldError) in try JSONObjectReader.double(v, p) }
        changes.barKilograms = try body.clearable("barKg") { v, p throws(JSONFieldError) in try JSONObjectReader.double(v, p) }
        changes.webhookURL = try body.clearable("webhookUrl") { v, p throws(JSONFieldError) in try JSONObjectReader.string(v, p) }
        changes.acceptDisclaimer = try body.optionalBool("acceptDisclaimer")
        changes.newWebhookSecret = try body.optionalBool("newWebhookSecret")
        let settings = try await strength.updateSettings(changes, for: context.user)
        return StrengthSettingsResponse(settings, unit: WeightUnit(context.user), deliveries: try await strength.webhookDeliveries(for: context.user))
    }

    /// POST /strength/sessions
    func postStrengthSessions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await RequestBody.jsonObject(request, allowed: ["routine", "sensor"])
        let view = try await strength.start(routineID: try body.string("routine"), sensorID: try body.optionalString("sensor"), for: context.user)
        var answer = try APIJSON.response(StrengthSessionResponse(view, unit: WeightUnit(context.user)), status: .created)
        answer.headers[.location] = "/api/strength/sessions/\(view.session.id)"
        return answer
    }

    /// GET /strength/sessions
    func getStrengthSessions(_ request: Request, context: AuthenticatedContext) async throws -> StrengthSessionListResponse {
        let parameters = request.uri.queryParameters
        let from = try QueryParameters.date(parameters.get("from"), name: "from")
        let to = try QueryParameters.date(parameters.get("to"), name: "to")
        let unit = WeightUnit(context.user)
        return StrengthSessionListResponse(
            sessions: try await strength.sessions(for: context.user, from: from, to: to, page: try QueryParameters.page(request)).map {
                StrengthSessionSummary($0, unit: unit)
            })
    }

    /// GET /strength/sessions/:sessionID
    func getStrengthSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> StrengthSessionResponse {
        StrengthSessionResponse(
            try await strength.session(try context.parameters.require("sessionID"), for: context.user), unit: WeightUnit(context.user))
    }

    /// DELETE /strength/sessions/:sessionID
    func deleteStrengthSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await strength.discardSession(userID: context.user.id, sessionID: try context.parameters.require("sessionID"))
        return Response(status: .noContent)
    }

    /// PUT /strength/sessions/:sessionID/sets/:n
    func putStrengthSessionsSessionIDSetsN(_ request: Request, context: AuthenticatedContext) async throws -> StrengthSessionResponse {
        let unit = WeightUnit(context.user)
        guard let n = Int(try context.parameters.require("n")), n >= 1 else {
            throw Problem(AppError(.notFound, "sets are numbered from 1", field: "n"))
        }
        let body = try await RequestBody.jsonObject(request, allowed: ["reps", "weight", "weightKg", "done"])
        var change = StrengthService.SetChange()
        change.reps = try body.clearable("reps") { v, p throws(JSONFieldError) in try JSONObjectReader.integer(v, p) }
        if body.contains("weight"), body.contains("weightKg") {
            throw Problem(AppError.invalid("give weight (in \(unit.name)) or weightKg, not both", field: "weightKg"))
        }
        if let weight = try body.optionalDouble("weight") { change.weightKilograms = unit.kilograms(weight) }
        if let weight = try body.optionalDouble("weightKg") { change.weightKilograms = weight }
        change.done = try body.optionalBool("done")
        let view = try await strength.logSet(try context.parameters.require("sessionID"), number: n, change, for: context.user)
        return StrengthSessionResponse(view, unit: unit)
    }

    /// POST /strength/sessions/:sessionID/finish
    func postStrengthSessionsSessionIDFinish(_ request: Request, context: AuthenticatedContext) async throws -> FinishResponse {
        let body = try await RequestBody.jsonObject(request, allowed: ["review", "enjoyment", "difficulty"])
        let finished = try await strength.finish(
            try context.parameters.require("sessionID"), review: try body.optionalString("review") ?? "",
            enjoyment: try body.integer("enjoyment"), difficulty: try body.integer("difficulty"), for: context.user)
        return FinishResponse(finished, unit: WeightUnit(context.user))
    }

    /// POST /strength/import: the export streams to the import directory and becomes a job;
    /// 200 with the summary when it is done within 10 s (a usual export), else 202 with the
    /// import to follow (`Location`).
    func postStrengthImport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let mediaType = RequestBody.mediaType(request) ?? ""
        let body = OneShotBody(request.body)
        let outcome: StrengthImportService.Outcome
        do {
            guard mediaType == "text/csv" || mediaType == "text/plain" else {
                throw Problem(.unsupportedMediaType, "Unsupported media type", detail: "send the Strong or Hevy export as text/csv")
                    .withMessage("Upload the .csv file that Strong or Hevy exports (Settings → Export data).")
            }
            outcome = try await services.strengthImports.receive(body.map(\.readableBytesView), for: context.user)
        } catch {
            // Refused with the body not read to its end: the rest is read and dropped.
            try? await body.discardRest()
            throw error
        }
        let unit = WeightUnit(context.user)
        switch outcome {
        case .done(let summary, let record):
            var answer = try APIJSON.response(ImportResponse(summary, unit: unit, importID: record.id))
            answer.headers[.contentLocation] = "/api/strength/imports/\(record.id)"
            return answer
        case .accepted(let record):
            var answer = try APIJSON.response(StrengthImportStatusResponse(StrengthImportService.Status(record: record, summary: nil), unit: unit), status: .accepted)
            answer.headers[.location] = "/api/strength/imports/\(record.id)"
            return answer
        }
    }

    /// GET /strength/imports/{importID}
    func getStrengthImportsImportID(_ request: Request, context: AuthenticatedContext) async throws -> StrengthImportStatusResponse {
        StrengthImportStatusResponse(
            try await services.strengthImports.status(try context.parameters.require("importID"), for: context.user), unit: WeightUnit(context.user))
    }

    /// GET /nutrition
    func getNutrition(_ request: Request, context: AuthenticatedContext) async throws -> NutritionResponse {
        NutritionResponse(try await strength.nutrition(for: context.user))
    }
}
