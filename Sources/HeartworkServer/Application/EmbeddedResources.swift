/// The server's resources, compiled into the binary (SwiftPM's `embedInCode` rule turns
/// each file under Resources/ into `PackageResources.<name>`), so the release binary is one
/// file that runs from any directory. A test holds this list equal to the folder.
enum EmbeddedResources {
    static let openAPIDocument: [UInt8] = PackageResources.openapi_json

    /// /static/NAME: bytes and media type.
    static let staticFiles: [String: (contentType: String, bytes: [UInt8])] = [
        "app.css": ("text/css; charset=utf-8", PackageResources.app_css),
        "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "coach.js": ("text/javascript; charset=utf-8", PackageResources.coach_js),
        "common.js": ("text/javascript; charset=utf-8", PackageResources.common_js),
        "food.js": ("text/javascript; charset=utf-8", PackageResources.food_js),
        "health-import.js": ("text/javascript; charset=utf-8", PackageResources.health_import_js),
        "heart-rate.js": ("text/javascript; charset=utf-8", PackageResources.heart_rate_js),
        "match.js": ("text/javascript; charset=utf-8", PackageResources.match_js),
        "strength.js": ("text/javascript; charset=utf-8", PackageResources.strength_js),
        "upload.js": ("text/javascript; charset=utf-8", PackageResources.upload_js),
        "record.js": ("text/javascript; charset=utf-8", PackageResources.record_js),
        "favicon.svg": ("image/svg+xml", PackageResources.favicon_svg),
    ]

    /// Mustache templates by name (the file name without `.mustache`).
    static let templates: [String: [UInt8]] = [
        "coach": PackageResources.coach_mustache,
        "dashboard": PackageResources.dashboard_mustache,
        "error": PackageResources.error_mustache,
        "foot": PackageResources.foot_mustache,
        "friend": PackageResources.friend_mustache,
        "friends": PackageResources.friends_mustache,
        "head": PackageResources.head_mustache,
        "home": PackageResources.home_mustache,
        "login": PackageResources.login_mustache,
        "match": PackageResources.match_mustache,
        "matches": PackageResources.matches_mustache,
        "notifications": PackageResources.notifications_mustache,
        "player": PackageResources.player_mustache,
        "profile": PackageResources.profile_mustache,
        "record": PackageResources.record_mustache,
        "settings": PackageResources.settings_mustache,
        "signup": PackageResources.signup_mustache,
        "team-session": PackageResources.team_session_mustache,
        "team": PackageResources.team_mustache,
        "teams": PackageResources.teams_mustache,
        "strength": PackageResources.strength_mustache,
        "strength-disclaimer": PackageResources.strength_disclaimer_mustache,
        "strength-exercises": PackageResources.strength_exercises_mustache,
        "strength-exercise": PackageResources.strength_exercise_mustache,
        "strength-routine": PackageResources.strength_routine_mustache,
        "strength-routine-form": PackageResources.strength_routine_form_mustache,
        "strength-session": PackageResources.strength_session_mustache,
        "strength-history": PackageResources.strength_history_mustache,
        "strength-settings": PackageResources.strength_settings_mustache,
        "strength-import": PackageResources.strength_import_mustache,
        "nutrition": PackageResources.nutrition_mustache,
        "today": PackageResources.today_mustache,
        "health-week": PackageResources.health_week_mustache,
        "health-history": PackageResources.health_history_mustache,
        "health-import": PackageResources.health_import_mustache,
        "food": PackageResources.food_mustache,
        "upload": PackageResources.upload_mustache,
        "workout-table": PackageResources.workout_table_mustache,
        "workout": PackageResources.workout_mustache,
        "workouts": PackageResources.workouts_mustache,
    ]
}
