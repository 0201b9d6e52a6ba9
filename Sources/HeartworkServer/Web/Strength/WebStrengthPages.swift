import Foundation
import HeartworkApp
import HeartworkCharts
import HeartworkCore
import HeartworkModel
import Hummingbird

/// Pocket PT in the web app (issue 12): the strength hub with today's suggestion and the
/// routines (`/strength`), the exercise library, routine editing, the session screen (phone
/// first: every set's weight and reps editable, one tap to mark it done), history with a
/// calendar, nutrition, settings, the disclaimer and the Strong/Hevy import. Forms work
/// without JavaScript; app.js saves set edits in place when it runs.
struct WebStrengthPages {
    let services: HeartworkServices
    let pages: PageRenderer

    struct RoutineForm: Decodable { let name: String?, goal: String?, description: String?, order: String?, exercises: [String]? }
    struct StartForm: Decodable { let routine: String?, sensor: String? }
    struct SetForm: Decodable { let reps: String?, weight: String?, done: String? }
    struct FinishForm: Decodable { let review: String?, enjoyment: String?, difficulty: String? }
    struct SettingsForm: Decodable { let goal: String?, lifestyle: String?, plateStep: String?, barKg: String?, webhookUrl: String?, next: String? }
    struct ImportForm: Decodable { let csv: String? }
    struct CustomExerciseForm: Decodable { let name: String?, group: String?, equipment: String?, timed: String? }

    var strength: StrengthService { services.strength }

    func register(on router: RouterGroup<AuthenticatedContext>) {
        router.get("strength", use: hub)
        router.get("strength/disclaimer", use: getStrengthDisclaimer)
        router.post("strength/disclaimer", use: postStrengthDisclaimer)
        router.get("strength/exercises", use: getStrengthExercises)
        router.post("strength/exercises", use: postStrengthExercises)
        router.get("strength/exercises/:exerciseID", use: getStrengthExercisesExerciseID)
        router.post("strength/exercises/:exerciseID/reset", use: postStrengthExercisesExerciseIDReset)

        router.get("strength/routines/new", use: getStrengthRoutinesNew)
        router.post("strength/routines", use: postStrengthRoutines)
        router.get("strength/routines/:routineID", use: getStrengthRoutinesRoutineID)
        router.get("strength/routines/:routineID/edit", use: getStrengthRoutinesRoutineIDEdit)
        router.post("strength/routines/:routineID", use: postStrengthRoutinesRoutineID)
        router.post("strength/routines/:routineID/delete", use: postStrengthRoutinesRoutineIDDelete)
        router.post("strength/routines/:routineID/move/:direction", use: postStrengthRoutinesRoutineIDMoveDirection)

        router.post("strength/sessions", use: postStrengthSessions)
        router.get("strength/sessions/:sessionID", use: getStrengthSessionsSessionID)
        router.post("strength/sessions/:sessionID/sets/:n", use: postStrengthSessionsSessionIDSetsN)
        router.post("strength/sessions/:sessionID/discard", use: postStrengthSessionsSessionIDDiscard)
        router.post("strength/sessions/:sessionID/finish", use: postStrengthSessionsSessionIDFinish)
        router.get("strength/history", use: history)
        router.get("strength/settings", use: getStrengthSettings)
        router.post("strength/settings", use: postStrengthSettings)
        router.post("strength/settings/secret", use: postStrengthSettingsSecret)
        router.get("strength/import", use: getStrengthImport)
        router.post("strength/import", use: postStrengthImport)
        router.get("strength/imports/:importID", use: getStrengthImportsImportID)
        router.get("nutrition", use: getNutrition)
    }

    /// GET /strength/settings
    func getStrengthSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await settingsPage(request, context)
    }

    /// GET /strength/disclaimer
    func getStrengthDisclaimer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let settings = try await strength.settings(for: context.user)
        return pages.page(
            "strength-disclaimer", title: "Before you lift",
            model: StrengthDisclaimerPage(
                disclaimer: StrengthService.disclaimer, accepted: settings.disclaimerAcceptedAt != nil,
                next: SafeRedirect.next(request.uri.queryParameters.get("next").map { String($0) })
            ), request: request, identity: context.identity)
    }

    /// POST /strength/disclaimer
    func postStrengthDisclaimer(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        struct Form: Decodable { let next: String? }
        let form = try await WebForm.decode(Form.self, from: request)
        _ = try await strength.updateSettings(.init(acceptDisclaimer: true), for: context.user)
        return pages.redirect(to: SafeRedirect.next(form.next ?? "/strength"))
    }

    /// GET /strength/exercises
    func getStrengthExercises(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await exercisesPage(request, context)
    }

    /// POST /strength/exercises: one of the user's own exercises (issue 25); a refusal shows
    /// the library again with the form as it was sent.
    func postStrengthExercises(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(CustomExerciseForm.self, from: request)
        let group = MuscleGroup.allCases.first { $0.rawValue == form.group }
        do {
            let view = try await strength.createCustomExercise(
                .init(name: form.name ?? "", group: group, equipment: form.equipment ?? "other", measure: form.timed == nil ? .reps : .seconds), for: context.user)
            return pages.redirect(to: "/strength/exercises/\(view.exercise.id)")
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await exercisesPage(request, context, form: form, error: error)
        }
    }

    func exercisesPage(_ request: Request, _ context: AuthenticatedContext, form: CustomExerciseForm? = nil, error: AppError? = nil) async throws -> Response {
        let text = request.uri.queryParameters.get("group").map { String($0) }
        let group = text.flatMap { t in MuscleGroup.allCases.first { $0.rawValue.lowercased() == t.lowercased() } }
        let unit = WeightUnit(context.user)
        let list = try await strength.exercises(for: context.user, group: group)
        let chosenGroup = form?.group ?? group?.rawValue ?? ""
        let chosenEquipment = form?.equipment ?? "barbell"
        return pages.page(
            "strength-exercises", title: "Exercise library",
            model: StrengthExercisesPage(
                groups: [.init(name: "All", href: "/strength/exercises", current: group == nil)]
                    + MuscleGroup.displayOrder.map { .init(name: $0.rawValue, href: "/strength/exercises?group=\($0.rawValue)", current: group == $0) },
                groupName: group?.rawValue ?? "All",
                count: list.count,
                ownCount: list.filter(\.exercise.isCustom).count, hasOwn: list.contains { $0.exercise.isCustom },
                exercises: list.map { view in
                    .init(
                        id: view.exercise.id, name: view.exercise.name, group: view.exercise.group.rawValue, equipment: view.exercise.equipment,
                        bodyweight: !view.exercise.loaded, timed: view.exercise.timed, cold: view.needsBaseline, started: !view.stats.isColdStart,
                        oneRepMax: view.exercise.loaded ? unit.text(view.stats.oneRepMaxKilograms) : "",
                        mostReps: view.stats.mostReps, custom: view.exercise.isCustom, picture: ExercisePicture(view.exercise))
                },
                formName: form?.name ?? "",
                groupOptions: MuscleGroup.displayOrder.map { .init(value: $0.rawValue, selected: $0.rawValue == chosenGroup) },
                equipmentOptions: StrengthService.customEquipment.map { .init(value: $0, selected: $0 == chosenEquipment) },
                formTimed: form?.timed != nil, formOpen: error != nil
            ), errors: error.map(PageRenderer.formErrors), request: request, identity: context.identity,
            status: error == nil ? .ok : (error?.kind == .conflict ? .conflict : .unprocessableContent))
    }

    /// GET /strength/exercises/:exerciseID
    func getStrengthExercisesExerciseID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (view, progress) = try await strength.exercise(try context.parameters.require("exerciseID"), for: context.user)
        let unit = WeightUnit(context.user)
        let zone = TimeZones.zone(context.user.timeZone)
        let e = view.exercise
        let settings = try await strength.settings(for: context.user)
        return pages.page(
            "strength-exercise", title: e.name,
            model: StrengthExercisePage(
                id: e.id, name: e.name, group: e.group.rawValue, primary: e.primaryMuscle, secondary: e.secondaryMuscles.joined(separator: ", "),
                hasSecondary: !e.secondaryMuscles.isEmpty, equipment: e.equipment, bodyweight: !e.loaded, instructions: e.instructions,
                timed: e.timed, baseline: baseline(e, settings: settings, unit: unit),
                equipmentIsBodyweight: e.equipment == "bodyweight",
                licence: e.licence, attribution: e.attribution, custom: e.isCustom, cold: view.needsBaseline, started: !view.stats.isColdStart,
                nextBaseline: baseline(e, stats: view.stats, settings: settings, unit: unit),
                oneRepMax: view.stats.oneRepMaxKilograms > 0 ? unit.text(view.stats.oneRepMaxKilograms) : "none yet",
                mostWeight: unit.text(view.stats.mostWeightKilograms), mostReps: view.stats.mostReps,
                resetAt: view.resetAt.map { Formatting.dateTime($0, zone: zone) } ?? "", wasReset: view.resetAt != nil,
                chart: progressChart(progress, unit: unit, zone: TimeZones.zone(context.user.timeZone)) ?? "", hasChart: progress.contains { $0.estimatedOneRepMax != nil },
                history: progress.reversed().prefix(20).map { point in
                    .init(
                        date: Formatting.day(point.date, zone: zone), session: point.sessionID,
                        best: point.bestSet.map { set in
                            e.timed
                                ? "\(set.reps ?? 0) s" + (set.weightKilograms > 0 ? " with \(unit.text(set.weightKilograms))" : "")
                                : (set.weightKilograms > 0 ? "\(set.reps ?? 0) × \(unit.text(set.weightKilograms))" : "\(set.reps ?? 0) reps")
                        } ?? "—",
                        estimate: point.estimatedOneRepMax.map { unit.text($0) } ?? "—")
                },
                hasHistory: !progress.isEmpty, picture: ExercisePicture(e)
            ), request: request, identity: context.identity)
    }

    /// POST /strength/exercises/:exerciseID/reset
    func postStrengthExercisesExerciseIDReset(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("exerciseID")
        _ = try await strength.reset(id, for: context.user)
        return pages.redirect(to: "/strength/exercises/\(id)", notice: .exerciseReset)
    }

    /// GET /strength/routines/new
    func getStrengthRoutinesNew(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await routineForm(request, context, routine: nil)
    }

    /// POST /strength/routines
    func postStrengthRoutines(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(RoutineForm.self, from: request)
        do {
            let routine = try await strength.createRoutine(try input(form), for: context.user)
            return pages.redirect(to: "/strength/routines/\(routine.template.id)", notice: .routineSaved)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await routineForm(request, context, routine: nil, form: form, error: error)
        }
    }

    /// GET /strength/routines/:routineID
    func getStrengthRoutinesRoutineID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let routine = try await strength.routine(try context.parameters.require("routineID"), for: context.user)
        let settings = try await strength.settings(for: context.user)
        let sensors = try await services.live.sensors(of: context.user)
        return pages.page(
            "strength-routine", title: routine.template.name,
            model: StrengthRoutinePage(
                id: routine.template.id, name: routine.template.name, goal: routine.template.goal.displayName,
                description: routine.template.description, builtIn: routine.builtIn, bodyweight: routine.bodyweight,
                groups: routine.groups.map(\.rawValue).joined(separator: ", "),
                exercises: routine.exercises.enumerated().map { i, item in
                    item.exercise.map { .init(n: i + 1, id: $0.id, name: $0.name, group: $0.group.rawValue, custom: $0.isCustom, missing: false) }
                        ?? .init(
                            n: i + 1, id: item.id, name: "An exercise that is no longer there", group: "",
                            custom: item.id.hasPrefix(StrengthCatalogue.customPrefix), missing: true)
                },
                hasMissing: !routine.missing.isEmpty,
                accepted: settings.disclaimerAcceptedAt != nil,
                sensors: sensors.map { .init(id: $0.id, name: $0.name ?? $0.address) }, hasSensors: !sensors.isEmpty
            ), request: request, identity: context.identity)
    }

    /// GET /strength/routines/:routineID/edit
    func getStrengthRoutinesRoutineIDEdit(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let routine = try await strength.routine(try context.parameters.require("routineID"), for: context.user)
        guard !routine.builtIn else { throw AppError(.forbidden, "built-in routines cannot be changed; create your own") }
        return try await routineForm(request, context, routine: routine)
    }

    /// POST /strength/routines/:routineID
    func postStrengthRoutinesRoutineID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("routineID")
        let form = try await WebForm.decode(RoutineForm.self, from: request)
        do {
            _ = try await strength.updateRoutine(id, try input(form), for: context.user)
            return pages.redirect(to: "/strength/routines/\(id)", notice: .routineSaved)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await routineForm(request, context, routine: try await strength.routine(id, for: context.user), form: form, error: error)
        }
    }

    /// POST /strength/routines/:routineID/delete
    func postStrengthRoutinesRoutineIDDelete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await strength.deleteRoutine(try context.parameters.require("routineID"), for: context.user)
        return pages.redirect(to: "/strength", notice: .routineDeleted)
    }

    /// POST /strength/routines/:routineID/move/:direction
    func postStrengthRoutinesRoutineIDMoveDirection(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("routineID")
        let own = try await strength.routines(for: context.user).filter { !$0.builtIn }.map(\.template.id)
        guard var index = own.firstIndex(of: id) else { throw AppError.notFound("routine") }
        var order = own
        let up = try context.parameters.require("direction") == "up"
        let target = up ? index - 1 : index + 1
        if order.indices.contains(target) {
            order.swapAt(index, target)
            index = target
        }
        _ = try await strength.reorderRoutines(order, for: context.user)
        return pages.redirect(to: "/strength#yours")
    }

    /// POST /strength/sessions
    func postStrengthSessions(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(StartForm.self, from: request)
        let settings = try await strength.settings(for: context.user)
        guard settings.disclaimerAcceptedAt != nil else {
            return pages.redirect(to: "/strength/disclaimer?next=/strength/routines/\(form.routine ?? "")")
        }
        let view = try await strength.start(routineID: form.routine ?? "", sensorID: WebForm.nonEmpty(form.sensor), for: context.user)
        return pages.redirect(to: "/strength/sessions/\(view.session.id)")
    }

    /// GET /strength/sessions/:sessionID
    func getStrengthSessionsSessionID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await sessionPage(request, context, id: try context.parameters.require("sessionID"))
    }

    /// POST /strength/sessions/:sessionID/sets/:n
    func postStrengthSessionsSessionIDSetsN(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("sessionID")
        guard let n = Int(try context.parameters.require("n")) else { throw AppError.notFound("set") }
        let form = try await WebForm.decode(SetForm.self, from: request)
        let unit = WeightUnit(context.user)
        var change = StrengthService.SetChange()
        do {
            if let text = WebForm.nonEmpty(form.reps) {
                guard let reps = Int(text) else { throw AppError.invalid("reps are a whole number", field: "reps") }
                change.reps = .set(reps)
            }
            if let weight = try WebForm.number(form.weight, field: "weight") { change.weightKilograms = unit.kilograms(weight) }
            if let done = form.done { change.done = done == "1" || done == "true" }
            _ = try await strength.logSet(id, number: n, change, for: context.user)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await sessionPage(request, context, id: id, error: error)
        }
        return pages.redirect(to: "/strength/sessions/\(id)#set-\(n)")
    }

    /// POST /strength/sessions/:sessionID/discard
    func postStrengthSessionsSessionIDDiscard(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await strength.discardSession(userID: context.user.id, sessionID: try context.parameters.require("sessionID"))
        return pages.redirect(to: "/strength", notice: .strengthSessionDiscarded)
    }

    /// POST /strength/sessions/:sessionID/finish
    func postStrengthSessionsSessionIDFinish(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("sessionID")
        let form = try await WebForm.decode(FinishForm.self, from: request)
        do {
            var missing = [AppError.FieldError]()
            if Int(form.enjoyment ?? "") == nil { missing.append(.init(field: "enjoyment", detail: "choose how much you enjoyed it (0 to 5 stars)")) }
            if Int(form.difficulty ?? "") == nil { missing.append(.init(field: "difficulty", detail: "choose how hard it was (0 to 5 stars)")) }
            guard missing.isEmpty else { throw AppError.invalid(missing) }
            _ = try await strength.finish(
                id, review: form.review ?? "", enjoyment: Int(form.enjoyment ?? "") ?? 0, difficulty: Int(form.difficulty ?? "") ?? 0, for: context.user)
        } catch let error as AppError where error.kind == .invalid || error.kind == .conflict {
            return try await sessionPage(request, context, id: id, error: error)
        }
        return pages.redirect(to: "/strength/sessions/\(id)#result")
    }

    /// POST /strength/settings
    func postStrengthSettings(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(SettingsForm.self, from: request)
        var changes = StrengthService.SettingsChanges()
        changes.goal = form.goal.flatMap(StrengthGoal.init(rawValue:))
        changes.lifestyle = form.lifestyle.flatMap(Lifestyle.init(rawValue:))
        do {
            if let step = form.plateStep {
                changes.plateStepKilograms = try WebForm.number(step, field: "plateStep").map { .set($0) } ?? .clear
            }
            if let bar = form.barKg { changes.barKilograms = try WebForm.number(bar, field: "barKg").map { .set($0) } ?? .clear }
            if let url = form.webhookUrl { changes.webhookURL = WebForm.nonEmpty(url).map { .set($0) } ?? .clear }
            _ = try await strength.updateSettings(changes, for: context.user)
        } catch let error as AppError where error.kind == .invalid {
            return try await settingsPage(request, context, error: error)
        }
        return pages.redirect(to: SafeRedirect.next(form.next ?? "/strength/settings"), notice: .settingsSaved)
    }

    /// POST /strength/settings/secret
    func postStrengthSettingsSecret(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        _ = try await strength.updateSettings(.init(newWebhookSecret: true), for: context.user)
        return pages.redirect(to: "/strength/settings#webhook", notice: .settingsSaved)
    }

    /// GET /strength/import
    func getStrengthImport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        pages.page("strength-import", title: "Import from Strong or Hevy", model: StrengthImportPage(), request: request, identity: context.identity)
    }

    /// POST /strength/import
    func postStrengthImport(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let form = try await WebForm.decode(ImportForm.self, from: request)
        do {
            let text = Array((form.csv ?? "").utf8)
            switch try await services.strengthImports.receive(bytes: text, for: context.user) {
            case .done(let summary, _):
                return pages.page("strength-import", title: "Import from Strong or Hevy", model: importPage(summary), request: request, identity: context.identity)
            case .accepted(let record):
                return Response(status: .seeOther, headers: [.location: "/strength/imports/\(record.id)"])
            }
        } catch let error as AppError where error.kind == .invalid {
            let model = StrengthImportPage(csv: String((form.csv ?? "").prefix(200_000)))
            return pages.page(
                "strength-import", title: "Import from Strong or Hevy", model: model, errors: PageRenderer.formErrors(error), request: request,
                identity: context.identity, status: .unprocessableContent)
        }
    }

    /// GET /strength/imports/{importID}: an import that took longer than the form waited —
    /// its progress (the page reloads itself), then its summary or why it stopped.
    func getStrengthImportsImportID(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let status = try await services.strengthImports.status(try context.parameters.require("importID"), for: context.user)
        let record = status.record
        var model: StrengthImportPage
        switch record.state {
        case .done:
            model = status.summary.map(importPage) ?? StrengthImportPage()
        case .failed:
            model = StrengthImportPage()
            let error = AppError.invalid(record.error ?? "the import stopped", field: "file")
            return pages.page(
                "strength-import", title: "Import from Strong or Hevy", model: model, errors: PageRenderer.formErrors(error), request: request,
                identity: context.identity)
        default:
            let percent = record.bytesTotal > 0 ? Int((Double(record.bytesDone) / Double(record.bytesTotal) * 100).rounded()) : 0
            model = StrengthImportPage()
            model.pending = .init(
                id: record.id, state: record.state == .queued ? "Waiting for its turn" : "Importing",
                progress: "\(percent) % of the file read, \(Formatting.count(record.workoutsAdded, "workout")) imported so far")
        }
        return pages.page("strength-import", title: "Import from Strong or Hevy", model: model, request: request, identity: context.identity)
    }

    /// The summary of a finished import, as the page shows it.
    func importPage(_ summary: StrengthService.ImportSummary) -> StrengthImportPage {
        StrengthImportPage(
            done: true, source: summary.source == "strong" ? "Strong" : "Hevy", imported: Formatting.count(summary.imported, "session"),
            duplicates: summary.duplicates > 0 ? summary.duplicates : nil,
            mapped: summary.mapped.sorted { $0.key < $1.key }.map { .init(from: $0.key, to: strength.catalogue.exercise($0.value)?.name ?? $0.value) },
            hasMapped: !summary.mapped.isEmpty,
            unmapped: summary.unmapped.sorted { $0.key < $1.key }.map {
                .init(id: summary.customExercises[$0.key] ?? "", name: $0.key, sets: $0.value == 1 ? "1 set" : "\($0.value) sets")
            },
            hasUnmapped: !summary.unmapped.isEmpty, skipped: summary.skippedRows, hasSkipped: !summary.skippedRows.isEmpty)
    }

    /// GET /nutrition
    func getNutrition(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let view = try await strength.nutrition(for: context.user)
        let labels = ["sex": "sex", "dateOfBirth": "date of birth", "height": "height", "weight": "weight"]
        var model = NutritionPage(
            goals: StrengthGoal.allCases.map { .init(value: $0.rawValue, label: $0.displayName, selected: $0 == view.goal) },
            lifestyles: StrengthOption.lifestyles(view.lifestyle, assumed: view.lifestyleAssumed),
            goal: view.goal.displayName, lifestyle: view.lifestyle.displayName,
            assumedLifestyle: view.lifestyleAssumed ? view.lifestyle.displayName.lowercased() : nil,
            missing: view.missing.map { labels[$0] ?? $0 }.joined(separator: ", "), hasMissing: !view.missing.isEmpty)
        if let t = view.targets {
            let energy = t.proteinGrams * 4 + t.fatGrams * 9 + t.carbohydrateGrams * 4
            func share(_ kcal: Int) -> Int { energy > 0 ? Int((Double(kcal) / Double(energy) * 100).rounded()) : 0 }
            model.targets = .init(
                calories: Int(t.calories.rounded()), tee: Int(t.totalEnergyExpenditure.rounded()),
                protein: t.proteinGrams, fat: t.fatGrams, carbs: t.carbohydrateGrams,
                proteinShare: share(t.proteinGrams * 4), fatShare: share(t.fatGrams * 9), carbShare: share(t.carbohydrateGrams * 4),
                adjustment: view.goal == .weightLoss
                    ? "− \(Int(((view.weightKilograms ?? 0) * NutritionTargets.weightLossKilocaloriesPerKilogram).rounded())) kcal for weight loss (\(String(format: "%g", NutritionTargets.weightLossKilocaloriesPerKilogram)) kcal per kg of body weight)"
                    : (view.goal == .massGain
                        ? "+ \(StrengthTexts.percent(NutritionTargets.massGainFactor - 1)) % for mass gain" : "no adjustment for maintenance"),
                warnings: t.warnings, hasWarnings: !t.warnings.isEmpty,
                inputs:
                    "\(view.sex?.rawValue ?? "") · \(view.ageYears ?? 0) years · \(Formatting.height(view.heightMeters, units: context.user.units)) · \(Formatting.weight(view.weightKilograms, units: context.user.units))"
            )
        }
        return pages.page("nutrition", title: "Nutrition", model: model, request: request, identity: context.identity)
    }

    // MARK: pages

    func hub(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let user = context.user
        let settings = try await strength.settings(for: user)
        let routines = try await strength.routines(for: user)
        let recent = try await strength.sessions(for: user, page: Page(limit: 30))
        let zone = TimeZones.zone(user.timeZone)
        let suggestion = try await strength.suggestion(for: user)
        func card(_ r: StrengthService.RoutineView) -> StrengthHubPage.Card {
            .init(
                id: r.template.id, name: r.template.name, groups: r.groups.map(\.rawValue).joined(separator: " · "), goal: r.template.goal.displayName,
                count: Formatting.count(r.template.exerciseIDs.count, "exercise"), bodyweight: r.bodyweight, description: r.template.description)
        }
        let own = routines.filter { !$0.builtIn }
        let builtIn = routines.filter(\.builtIn)
        // The user's goal first: those are the routines they are most likely to want.
        let goals = [settings.goal] + StrengthGoal.allCases.filter { $0 != settings.goal }
        let sections: [StrengthHubPage.Section] =
            goals.map { goal in
                .init(title: goal.displayName, routines: builtIn.filter { $0.template.goal == goal && !$0.bodyweight }.map(card))
            } + [.init(title: "Bodyweight (a bar at most)", routines: builtIn.filter(\.bodyweight).map(card))]
        let open = recent.filter { $0.finishedAt == nil && $0.source == "heartwork" }
        return pages.page(
            "strength", title: "Strength",
            model: StrengthHubPage(
                accepted: settings.disclaimerAcceptedAt != nil, goal: settings.goal.displayName,
                suggestion: suggestion.map {
                    .init(
                        id: $0.routine.template.id, name: $0.routine.template.name, reason: $0.why,
                        groups: $0.routine.groups.map(\.rawValue).joined(separator: " · "), warning: $0.warning.map(AppError.sentence))
                },
                hasSuggestion: suggestion != nil,
                open: open.map { .init(id: $0.id, name: $0.name, started: Formatting.dateTime($0.startedAt, zone: zone)) },
                hasOpen: !open.isEmpty,
                own: own.enumerated().map { i, r in
                    var card = card(r)
                    card.first = i == 0
                    card.last = i == own.count - 1
                    return card
                },
                hasOwn: !own.isEmpty, sections: sections,
                recent: recent.filter { $0.finishedAt != nil }.prefix(5).map { s in
                    .init(
                        id: s.id, name: s.name, date: Formatting.day(s.startedAt, zone: zone), stars: s.enjoyment.map(stars) ?? "",
                        source: s.source == "heartwork" ? "" : "imported from \(s.source == "strong" ? "Strong" : "Hevy")")
                }
            ), request: request, identity: context.identity)
    }

    /// What a never-done exercise starts with, for the exercise page.
    /// With `stats`, what it starts with next time (a loaded exercise still without a 1RM
    /// starts heavier, `WorkoutGenerator.baselineKilograms`).
    func baseline(_ e: Exercise, stats: ExerciseStats = .coldStart, settings: StrengthSettingsRecord, unit: WeightUnit) -> String {
        if e.timed { return "one hold of as long as you can" }
        guard e.loaded else { return "one set of as many reps as you can" }
        let generator = WorkoutGenerator(
            goal: settings.goal, plateStepKilograms: settings.plateStepKilograms,
            kilogramsPerUnit: unit.pounds ? BodyMass.kilogramsPerPound : 1)
        let weight = generator.prescribe([GeneratorExercise(e, stats: stats, barKilograms: settings.barKilograms)]).first?.sets.first?.weightKilograms ?? 0
        // After a baseline of 37 or more reps it is heavier than the last, not light.
        return "one \(stats.isColdStart ? "light" : "baseline") set (\(unit.text(weight))) of as many reps as you can"
    }

    func stars(_ n: Int) -> String { String(repeating: "★", count: max(0, min(5, n))) + String(repeating: "☆", count: 5 - max(0, min(5, n))) }

    func input(_ form: RoutineForm) throws -> StrengthService.RoutineInput {
        guard let goal = form.goal.flatMap(StrengthGoal.init(rawValue:)) else {
            throw AppError.invalid("choose the goal the routine serves", field: "goal")
        }
        let ordered = (form.order ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let ids = ordered.isEmpty ? (form.exercises ?? []) : ordered
        return .init(name: form.name ?? "", goal: goal, description: form.description ?? "", exerciseIDs: ids)
    }

    func routineForm(
        _ request: Request, _ context: AuthenticatedContext, routine: StrengthService.RoutineView?, form: RoutineForm? = nil, error: AppError? = nil
    ) async throws -> Response {
        // The user's own exercises first in each group (marked as theirs), then the catalogue's;
        // an exercise of theirs that is gone drops out of the routine being edited.
        let lookup = try await strength.exerciseLookup(for: context.user)
        let chosen: [String] =
            form.map { (try? input($0).exerciseIDs) ?? ($0.exercises ?? []) } ?? routine?.exercises.filter { $0.exercise != nil }.map(\.id) ?? []
        let own = lookup.own.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
        let goal = form?.goal ?? routine?.template.goal.rawValue ?? StrengthGoal.muscleMaintenance.rawValue
        let model = StrengthRoutineFormPage(
            editing: routine != nil,
            id: routine?.template.id ?? "",
            name: form?.name ?? routine?.template.name ?? "",
            description: form?.description ?? routine?.template.description ?? "",
            order: chosen.joined(separator: ","),
            goals: StrengthGoal.allCases.map { .init(value: $0.rawValue, label: $0.displayName, selected: $0.rawValue == goal) },
            groups: MuscleGroup.displayOrder.map { group in
                .init(
                    name: group.rawValue,
                    exercises: (own + strength.catalogue.exercises).filter { $0.group == group }.map { e in
                        .init(
                            id: e.id, name: e.name, equipment: e.equipment, checked: chosen.contains(e.id),
                            position: (chosen.firstIndex(of: e.id) ?? -1) + 1, custom: e.isCustom)
                    })
            },
            chosen: chosen.enumerated().compactMap { i, id in lookup.exercise(id).map { .init(n: i + 1, name: $0.name) } })
        return pages.page(
            "strength-routine-form", title: routine == nil ? "New routine" : "Edit \(routine?.template.name ?? "routine")",
            model: model, errors: error.map(PageRenderer.formErrors), request: request, identity: context.identity,
            status: error == nil ? .ok : .unprocessableContent)
    }

    func sessionPage(_ request: Request, _ context: AuthenticatedContext, id: String, error: AppError? = nil) async throws -> Response {
        let view = try await strength.session(id, for: context.user)
        let unit = WeightUnit(context.user)
        let zone = TimeZones.zone(context.user.timeZone)
        let s = view.session
        var blocks = [StrengthSessionPage.Block]()
        var current = -1
        for (index, set) in view.sets.enumerated() {
            if set.exerciseIndex != current {
                current = set.exerciseIndex
                let exercise = view.exercises.exercise(set.exerciseID)
                blocks.append(
                    .init(
                        name: set.exerciseName, exerciseID: set.exerciseID, known: exercise != nil,
                        group: exercise?.group.rawValue ?? "", bodyweight: exercise?.loaded == false, timed: exercise?.timed == true,
                        sets: [], picture: ExercisePicture(exercise)))
            }
            let hr = view.heartRate.flatMap { index < $0.count ? $0[index] : nil }
            // A hold's "reps" are seconds.
            let timed = view.exercises.isTimed(set.exerciseID)
            let count = set.prescribedReps.map { timed ? "\($0) s" : "\($0)" } ?? (timed ? "max hold" : "max")
            if var last = blocks.popLast() {
                last.sets.append(
                    .init(
                        n: set.position, sessionID: s.id, reps: set.reps.map(String.init) ?? "", maximum: set.prescribedReps == nil, timed: timed,
                        weight: unit.number(set.weightKilograms), done: set.done, kind: set.kind, warmup: set.kind == "warmup",
                        target: count + (set.prescribedWeightKilograms > 0 ? " × \(unit.text(set.prescribedWeightKilograms))" : ""),
                        hasHeartRate: hr?.peak != nil, peak: hr?.peak ?? 0, recovery: hr?.recovery.map { "−\($0)" } ?? "—",
                        setLabel: "Set \(set.position)", index: last.sets.count + 1))
                blocks.append(last)
            }
        }
        let finished = s.finishedAt != nil
        if finished {
            // What each exercise's sets say of its one-rep maximum (the update keeps the highest).
            for index in blocks.indices {
                let id = blocks[index].exerciseID
                let performed = view.sets.filter { $0.exerciseID == id }.map(\.performed)
                if let best = StrengthProgression.bestEstimate(performed), view.exercises.exercise(id)?.loaded == true {
                    blocks[index].estimate = "best set ≈ 1RM \(unit.text(best))"
                }
            }
        }
        let editable = !finished || (view.editableUntil.map { Date() <= $0 } ?? false)
        var model = StrengthSessionPage(
            id: s.id, name: s.name, goal: s.goal.displayName, unit: unit.name, started: Formatting.dateTime(s.startedAt, zone: zone),
            startedAt: Int(s.startedAt.timeIntervalSince1970 * 1000), finished: finished, editable: editable, blocks: blocks,
            source: s.source == "heartwork" ? "" : (s.source == "strong" ? "Imported from Strong" : "Imported from Hevy"),
            imported: s.source != "heartwork",
            hasHeartRate: view.heartRate != nil,
            heartRateSource: view.heartRateSource.map { $0 == "sensor" ? "from your strap" : "from your uploaded workout" } ?? "",
            editableUntil: view.editableUntil.map { Formatting.dateTime($0, zone: zone) } ?? "")
        if finished {
            model.result = .init(
                duration: Formatting.duration(Int((s.durationSeconds ?? 0).rounded())), volume: unit.text(s.volumeKilograms ?? 0),
                reps: s.totalReps ?? 0, sets: s.totalSets ?? 0, message: s.message ?? "", hasMessage: !(s.message ?? "").isEmpty,
                review: s.review ?? "", hasReview: !(s.review ?? "").isEmpty,
                enjoyment: stars(s.enjoyment ?? 0), difficulty: stars(s.difficulty ?? 0), score: s.sentiment ?? 0)
        }
        if finished {
            let changes = try await strength.oneRepMaxChanges(of: view)
            model.changes = changes.map { .init(name: $0.exerciseName, before: $0.before > 0 ? unit.text($0.before) : "none yet", after: unit.text($0.after)) }
            model.hasChanges = !changes.isEmpty
        }
        // The seed's ratings run 0–5: zero is "none", not a bare "0" beside the stars.
        model.ratings = (0...5).map { .init(value: $0, label: $0 == 0 ? "None" : String(repeating: "★", count: $0)) }
        return pages.page(
            "strength-session", title: s.name, model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error == nil ? .ok : .unprocessableContent)
    }

    func history(_ request: Request, _ context: AuthenticatedContext) async throws -> Response {
        let zone = TimeZones.zone(context.user.timeZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let now = Date()
        var month = calendar.dateComponents([.year, .month], from: now)
        if let text = request.uri.queryParameters.get("month") {
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 2, (1970...9999).contains(parts[0]), (1...12).contains(parts[1]) else {
                throw Problem.badRequest("month is YYYY-MM, such as 2026-11", field: "month")
            }
            month = DateComponents(year: parts[0], month: parts[1])
        }
        guard let start = calendar.date(from: month), let end = calendar.date(byAdding: .month, value: 1, to: start),
            let previous = calendar.date(byAdding: .month, value: -1, to: start)
        else { throw Problem.badRequest("month is out of range", field: "month") }
        let inMonth = try await strength.sessions(for: context.user, from: start, to: end, page: Page(limit: 100))
        let selected = request.uri.queryParameters.get("day").flatMap { Int($0) }
        var byDay = [Int: [StrengthSessionRecord]]()
        for s in inMonth { byDay[calendar.component(.day, from: s.startedAt), default: []].append(s) }
        let days = calendar.range(of: .day, in: .month, for: start)?.count ?? 30
        let lead = (calendar.component(.weekday, from: start) + 5) % 7  // Monday first
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let label = "\(month.year ?? 0)-\(String(format: "%02d", month.month ?? 1))"
        var cells = Array(repeating: StrengthHistoryPage.Cell(blank: true), count: lead)
        for day in 1...days {
            let count = byDay[day]?.count ?? 0
            cells.append(
                .init(
                    day: day, has: count > 0, count: count, sessionsLabel: Formatting.count(count, "session"),
                    today: today.year == month.year && today.month == month.month && today.day == day, selected: selected == day,
                    href: "/strength/history?month=\(label)&day=\(day)"))
        }
        let list = try await strength.sessions(for: context.user, page: Page(limit: 50, offset: 0))
        func row(_ s: StrengthSessionRecord) -> StrengthHistoryPage.Row {
            .init(
                id: s.id, name: s.name, date: Formatting.dateTime(s.startedAt, zone: zone), stars: stars(s.enjoyment ?? 0),
                open: s.finishedAt == nil, source: s.source == "heartwork" ? "" : s.source)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = "LLLL yyyy"
        return pages.page(
            "strength-history", title: "Strength history",
            model: StrengthHistoryPage(
                month: formatter.string(from: start), cells: cells,
                previous: "/strength/history?month=\(calendar.component(.year, from: previous))-\(String(format: "%02d", calendar.component(.month, from: previous)))",
                next: "/strength/history?month=\(calendar.component(.year, from: end))-\(String(format: "%02d", calendar.component(.month, from: end)))",
                hasSelected: selected != nil, selectedDay: selected ?? 0,
                selectedSessions: (selected.flatMap { byDay[$0] } ?? []).map(row), selectedEmpty: selected != nil && byDay[selected ?? 0] == nil,
                sessions: list.map(row), hasSessions: !list.isEmpty
            ), request: request, identity: context.identity)
    }

    func settingsPage(_ request: Request, _ context: AuthenticatedContext, error: AppError? = nil) async throws -> Response {
        let settings = try await strength.settings(for: context.user)
        let deliveries = try await strength.webhookDeliveries(for: context.user)
        let zone = TimeZones.zone(context.user.timeZone)
        let model = StrengthSettingsPage(
            goals: StrengthGoal.allCases.map { .init(value: $0.rawValue, label: $0.displayName, selected: $0 == settings.goal) },
            lifestyles: StrengthOption.lifestyles(settings.lifestyle, assumed: !settings.lifestyleChosen),
            plateStep: settings.plateStepKilograms.map { Formatting.field($0) } ?? "",
            barKg: Formatting.field(settings.barKilograms),
            webhookUrl: settings.webhookURL ?? "", secret: settings.webhookSecret,
            accepted: settings.disclaimerAcceptedAt.map { Formatting.dateTime($0, zone: zone) } ?? "", hasAccepted: settings.disclaimerAcceptedAt != nil,
            deliveries: deliveries.map { d in
                .init(
                    when: Formatting.dateTime(d.createdAt, zone: zone), attempts: d.attempts,
                    state: d.deliveredAt != nil ? "delivered" : (d.givenUpAt != nil ? "given up" : "pending"), error: d.lastError ?? "")
            },
            hasDeliveries: !deliveries.isEmpty)
        return pages.page(
            "strength-settings", title: "Strength settings", model: model, errors: error.map(PageRenderer.formErrors), request: request,
            identity: context.identity, status: error == nil ? .ok : .unprocessableContent)
    }

    /// The estimated one-rep maximum over time, dated in the user's zone; nil before the
    /// first session with a 1RM.
    func progressChart(_ progress: [StrengthService.ProgressPoint], unit: WeightUnit, zone: TimeZone) -> String? {
        let points = progress.compactMap { p in p.estimatedOneRepMax.map { (p.date, unit.value($0)) } }
        guard let first = points.first else { return nil }
        let xs = points.map { ChartPoint(x: $0.0.timeIntervalSince(first.0) / 86_400, y: $0.1) }
        let origin = first.0
        let values = points.map(\.1)
        return WorkoutCharts.Chart { width in
            var svg = SVGDocument(width: width, height: 260, title: "Estimated one-rep maximum over time", id: "one-rep-max-\(Int(width))")
            var chart = XYChart(
                title: width < 500 ? "Estimated 1RM (Brzycki)" : "Estimated 1RM (Brzycki, best set of each session)", xLabel: "Date",
                yLabel: "1RM (\(unit.name))",
                layers: [.line(xs, stroke: Palette.primary, width: 2), .points(xs, fill: Palette.primary, radius: 3, opacity: 1)])
            // A week wide at least, and a weight range around the values (one session: ±10 %).
            if (xs.last?.x ?? 0) < 7 { chart.xDomain = 0...7 }
            if let low = values.min(), let high = values.max(), high - low < max(1, high * 0.05) {
                chart.yDomain = max(0, low * 0.9)...max(high * 1.1, low + 1)
            }
            chart.xTickCount = WorkoutCharts.xTicks(width)
            chart.xTickText = { days in Formatting.shortDay(origin.addingTimeInterval(days * 86_400), zone: zone) }
            chart.draw(in: Frame(x: 0, y: 0, width: width, height: 260), on: &svg)
            return WorkoutCharts.Drawing(svg: svg.rendered)
        }.svg
    }
}
