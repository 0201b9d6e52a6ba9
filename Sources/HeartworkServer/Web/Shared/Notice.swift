import Hummingbird

/// A confirmation shown once on the next page after a form: its code travels in a short-lived
/// cookie and maps to fixed text here, so nothing a link or another site sends ends up in it.
enum Notice: String, CaseIterable {
    case welcome
    case signedOut = "signed-out"
    case profileSaved = "profile-saved"
    case weightAdded = "weight-added"
    case restingAdded = "resting-added"
    case settingsSaved = "settings-saved"
    case passwordChanged = "password-changed"
    case accountDeleted = "account-deleted"
    case workoutShared = "workout-shared"
    case workoutUnshared = "workout-unshared"
    case workoutDeleted = "workout-deleted"
    case requestSent = "request-sent"
    case friendsNow = "friends-now"
    case requestAccepted = "request-accepted"
    case requestDenied = "request-denied"
    case friendRemoved = "friend-removed"
    case teamCreated = "team-created"
    case teamRenamed = "team-renamed"
    case teamDeleted = "team-deleted"
    case playerAdded = "player-added"
    case playerRemoved = "player-removed"
    case playerSaved = "player-saved"
    case playerDeleted = "player-deleted"
    case sensorAssigned = "sensor-assigned"
    case sensorRenamed = "sensor-renamed"
    case gatewayRevoked = "gateway-revoked"
    case syncTokenRevoked = "sync-token-revoked"
    case sessionStopped = "session-stopped"
    case sessionSaved = "session-saved"
    case sessionDiscarded = "session-discarded"
    case sessionContextSaved = "session-context-saved"
    case sessionCorrectionSaved = "session-correction-saved"
    case sensorRemovedKeepingReadings = "sensor-removed-kept"
    case sensorDeletedWithReadings = "sensor-deleted-readings"
    case challengeSent = "challenge-sent"
    case challengeAccepted = "challenge-accepted"
    case challengeDeclined = "challenge-declined"
    case notificationsRead = "notifications-read"
    case matchSaved = "match-saved"
    case routineSaved = "routine-saved"
    case routineDeleted = "routine-deleted"
    case exerciseReset = "exercise-reset"
    case strengthSessionDiscarded = "strength-session-discarded"

    static let cookieName = "hw_notice"

    var message: String {
        switch self {
        case .welcome: "Welcome to Heartwork! Add your date of birth and resting heart rate so your zones fit you."
        case .signedOut: "You are signed out."
        case .profileSaved: "Profile saved."
        case .weightAdded: "Weight added."
        case .restingAdded: "Resting heart rate added."
        case .settingsSaved: "Settings saved."
        case .passwordChanged: "Password changed. Your other sessions were signed out."
        case .accountDeleted: "Your account and everything in it were deleted."
        case .workoutShared: "The workout is shared with your friends."
        case .workoutUnshared: "The workout is no longer shared."
        case .workoutDeleted: "The workout was deleted."
        case .requestSent: "Friend request sent."
        case .friendsNow: "You are now friends."
        case .requestAccepted: "Request accepted: you are now friends."
        case .requestDenied: "Request declined."
        case .friendRemoved: "Friend removed."
        case .teamCreated: "Team created. Add players and give each their sensor."
        case .teamRenamed: "Team renamed."
        case .teamDeleted: "Team deleted. Its players are kept, in no team."
        case .playerAdded: "Player added."
        case .playerRemoved: "Player taken out of the team."
        case .playerSaved: "Player saved."
        case .playerDeleted: "Player deleted."
        case .sensorAssigned: "Sensor saved."
        case .sensorRenamed: "Sensor renamed."
        case .gatewayRevoked: "Gateway revoked: its token no longer works."
        case .syncTokenRevoked: "Sync token revoked: the app that used it can no longer send."
        case .sessionStopped: "Recording stopped. Save the session to keep it, or discard it."
        case .sessionSaved: "Session saved."
        case .sessionDiscarded: "Session discarded. The readings stay with the sensors."
        case .sessionContextSaved: "Session context saved."
        case .sessionCorrectionSaved: "Artifact correction changed: the HRV below is computed again with it."
        case .sensorRemovedKeepingReadings: "Sensor removed. Its readings were kept (sessions that used it still show them); it comes back if a gateway hears it again."
        case .sensorDeletedWithReadings: "Sensor deleted, and every reading it sent was deleted with it."
        case .challengeSent: "Challenge sent. Wait here: the match starts when your friend joins."
        case .challengeAccepted: "Challenge accepted. The match starts when you are both on this page."
        case .challengeDeclined: "Challenge declined."
        case .notificationsRead: "All notifications marked read."
        case .matchSaved: "The match is saved as a workout."
        case .routineSaved: "Routine saved."
        case .routineDeleted: "Routine deleted. Sessions you did with it are kept."
        case .exerciseReset: "Reset: your next session starts this exercise again with a light baseline set."
        case .strengthSessionDiscarded: "Session discarded: it and its sets are deleted."
        }
    }

    func cookie(secure: Bool) -> Cookie {
        Cookie(name: Self.cookieName, value: rawValue, maxAge: 60, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    static func clearing(secure: Bool) -> Cookie {
        Cookie(name: cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
