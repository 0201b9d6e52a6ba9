#!/usr/bin/env python3
"""Writes Sources/HeartworkServer/Resources/openapi.json, the OpenAPI 3.1 description of every
route, from the compact description below. Edit this file, run it, commit both:

    python3 scripts/openapi.py

The Swift tests check the document against the router (every route described, nothing
described that is not a route) and validate real responses against its schemas.
"""
import json
import pathlib

OUT = pathlib.Path(__file__).resolve().parents[1] / "Sources/HeartworkServer/Resources/openapi.json"

PROBLEM = {"$ref": "#/components/schemas/Problem"}
PAGE_PARAMS = [
    {"name": "limit", "in": "query", "required": False, "description": "Page size, 1–100 (default 20)",
     "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
    {"name": "offset", "in": "query", "required": False, "description": "Items to skip (default 0)",
     "schema": {"type": "integer", "minimum": 0}},
]
CSRF = {"_csrf": {"type": "string", "description": "The session's CSRF token"}}
# FitLabTeam F8 (issue 25): a team session's context, the seed's labels verbatim.
CONTEXT_VALUES = {
    "time": ["5-15 min", "30 min", "2h", "3h", "4-6h", "6-8h", "10-12h", "12-18h", "18-24h", "1d", "2d", "+2"],
    "moment": ["After", "Before"],
    "situation": ["Training", "Championship", "Injury", "Exam", "Business", "Concert", "Movie/Theatre", "Other"],
    "state": ["Seated", "Lying", "Moving"],
}

# Error answers of the API, by status.
API_ERRORS = {
    400: "Malformed request (the field is named)",
    401: "Not signed in, or the token is unknown, expired or revoked",
    403: "Cookie session without the CSRF token",
    404: "Not found, or not yours to see",
    409: "Conflict",
    413: "Body too large",
    415: "Unsupported media type",
    422: "Invalid value (the field is named)",
    426: "Upgrade required: a WebSocket endpoint",
    429: "Too many attempts, or too many at once (Retry-After says when to try again)",
    503: "The server cannot do this now (the detail says why)",
}


def ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(kind, **extra):
    return {"type": [kind, "null"], **extra}


def obj(properties, required=(), additional=False, **extra):
    schema = {"type": "object", "properties": properties}
    schema.update(extra)
    schema["additionalProperties"] = additional
    if required:
        schema["required"] = list(required)
    return schema


def array(items, **extra):
    return {"type": "array", "items": items, **extra}


def path_param(name, enum=None):
    schema = {"type": "string"}
    if enum:
        schema["enum"] = enum
    return {"name": name, "in": "path", "required": True, "description": "", "schema": schema}


def query_param(name, description, schema=None):
    return {"name": name, "in": "query", "required": False, "description": description, "schema": schema or {"type": "string"}}


def json_content(schema):
    return {"application/json": {"schema": schema}}


paths = {}


def operation(path, method, operation_id, summary, tag, responses, body=None, params=None, public=False, security=None):
    """`public`: no credentials needed; `security`: only these schemes (a sync route's token)."""
    op = {"operationId": operation_id, "summary": summary, "tags": [tag], "responses": responses}
    if params:
        op["parameters"] = params
    if body is not None:
        op["requestBody"] = body
    if public:
        op["security"] = []
    elif security:
        op["security"] = security
    # Any request with an Authorization header that is not a valid token is refused, on
    # every route (a client must learn at once that its token is dead).
    if "401" not in responses:
        responses["401"] = {"description": "An Authorization header was sent, but its token is unknown, expired or revoked",
                            "content": {"application/problem+json": {"schema": PROBLEM}, "text/html": {"schema": {"type": "string"}}}}
    paths.setdefault(path, {})[method] = op


def api(path, method, operation_id, summary, ok, errors=(), body=None, params=None, public=False, tag=None,
        security=None, error_descriptions=None, any_media_type=False):
    """An API operation. `ok` is {status: (description, schema or None)}. Every operation can
    answer 401 (a bearer token that is unknown, expired or revoked is refused at once, even on
    public routes), and every unsafe one 403 (a cookie session without its CSRF token).
    `error_descriptions` says more than API_ERRORS for some statuses; `any_media_type`: the body
    is recognised by its content, whatever its Content-Type (no 415)."""
    errors = set(errors) | {401}
    if method in ("post", "put", "patch", "delete"):
        errors.add(403)
    if body is not None:
        errors.add(413)  # every body has a size limit
        if not any_media_type:
            errors.add(415)  # and a media type
    responses = {}
    for status, (description, schema, *headers) in ok.items():
        response = {"description": description}
        if headers:
            response["headers"] = {name: {"schema": {"type": "string"}} for name in headers}
        if schema is not None:
            response["content"] = json_content(schema)
        responses[str(status)] = response
    for status in sorted(errors):
        description = (error_descriptions or {}).get(status, API_ERRORS[status])
        responses[str(status)] = {"description": description, "content": {"application/problem+json": {"schema": PROBLEM}}}
    request_body = None
    if body is not None:
        request_body = {"required": True, "content": body if isinstance(body, dict) and "$ref" not in body and "type" not in body else json_content(body)}
    operation(path, method, operation_id, summary, tag or TAG, responses, request_body, params, public, security)


def page(path, method, operation_id, summary, statuses, form=None, params=None, public=False, form_required=True):
    """A web page or form post: HTML, or 303 to the next page. Any page can answer 400 (a
    malformed form or query)."""
    responses = {}
    for status in sorted(set(statuses) | {400}):
        if status == 303:
            responses["303"] = {"description": "Done; redirects to the next page", "headers": {"Location": {"schema": {"type": "string"}}}}
        else:
            responses[str(status)] = {"description": "HTML page", "content": {"text/html": {"schema": {"type": "string"}}}}
    body = None
    if form is not None:
        body = {"required": form_required, "content": {"application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": form}}}}
    operation(path, method, operation_id, summary, "web", responses, body, params, public)


# MARK: System

TAG = "system"
operation("/healthz", "get", "health", "Liveness and database check", "system", {
    "200": {"description": "OK", "content": json_content(ref("Health"))},
    "503": {"description": "Database unreachable", "content": json_content(ref("Health"))},
}, public=True)
operation("/metrics", "get", "metrics", "Prometheus metrics (aggregate counts only, no personal data)", "system", {
    "200": {"description": "Prometheus text format", "content": {"text/plain": {"schema": {"type": "string"}}}},
}, public=True)
operation("/openapi.json", "get", "openapi", "This document", "system", {
    "200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}},
}, public=True)

# MARK: Accounts

TAG = "accounts"
api("/api/auth/register", "post", "register", "Create an account", {201: ("Created", ref("Profile"))},
    errors=(400, 409, 422), body=ref("RegisterRequest"), public=True)
api("/api/auth/login", "post", "login", "Sign in: an opaque bearer token valid for 30 days", {200: ("OK", ref("LoginResponse"))},
    errors=(400, 401, 422, 429), body=ref("LoginRequest"), public=True)
api("/api/auth/logout", "post", "logout", "Revoke the token used (its open sockets close)", {204: ("Signed out", None)})
api("/api/auth/logout-everywhere", "post", "logoutEverywhere",
    "End every session of yours on every device, this one included; their open sockets close (gateways keep their tokens)",
    {204: ("Signed out everywhere", None)})
api("/api/me/password", "post", "changePassword", "Change the password; every other session is revoked", {204: ("Changed", None)},
    errors=(400, 401, 422), body=ref("ChangePasswordRequest"))

# MARK: Profile

TAG = "profile"
api("/api/me", "get", "getProfile", "Your profile with latest measurements and settings", {200: ("OK", ref("Profile"))})
api("/api/me", "delete", "deleteAccount",
    "Delete your account with the password: every row and blob of yours goes (friendships, requests and matches with others included) and every session ends",
    {204: ("Deleted", None)}, errors=(400, 401, 422), body=ref("DeleteAccountRequest"))
operation("/api/me/export", "get", "exportAccount",
          "Everything of yours as a ZIP archive, streamed: profile, friends, measurements, every workout as JSON and FIT, and your rows of every table (docs/FILES.md)", "profile", {
    "200": {"description": "The archive, as an attachment (heartwork-export-<username>-<date>.zip)", "content": {
        "application/zip": {"schema": {"type": "string", "format": "binary"}}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
})
api("/api/me", "patch", "updateProfile", "Change profile fields; null clears optional ones (and is refused for the others)",
    {200: ("OK", ref("Profile"))}, errors=(400, 401, 422), body=ref("ProfileUpdate"))
api("/api/me/photo", "put", "setPhoto", "Upload a profile photo (PNG or JPEG, at most 5 MB, checked by content)", {204: ("Stored", None)},
    errors=(401, 413, 415), body={"image/png": {"schema": {"type": "string", "format": "binary"}},
                                  "image/jpeg": {"schema": {"type": "string", "format": "binary"}}})
operation("/api/users/{userID}/photo", "get", "getPhoto", "A photo: yours or a friend's", "profile", {
    "200": {"description": "The image", "content": {"image/png": {}, "image/jpeg": {}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("userID")])
api("/api/me/settings", "get", "getSettings", "Sharing settings", {200: ("OK", ref("Settings"))})
api("/api/me/settings", "put", "updateSettings", "Change sharing settings", {200: ("OK", ref("Settings"))},
    errors=(400, 401, 422), body=ref("SettingsUpdate"))

MEASUREMENT_KINDS = {"weight": ("kg", "Weight", "weights"), "resting-heart-rate": ("bpm", "Resting heart rate", "resting-heart-rates"),
                     "height": ("m", "Height", "heights")}
UNIT_NAMES = {"m": "metres"}  # where the add summary spells the unit out
# Heights are also read by the imports and the phone sync (issue 24); their history says which.
HISTORY_NOTES = {"height": ": what you entered and what an import read (source)"}


def measurement_history(path, kind, entry_schema, list_id, add_id, delete_id, add_summary):
    unit, title, _ = MEASUREMENT_KINDS[kind]
    api(path, "get", list_id, f"{title} history ({unit}), oldest first{HISTORY_NOTES.get(kind, '')}", {200: ("OK", ref("MeasurementList"))})
    api(path, "post", add_id, add_summary, {201: ("Created", ref("Measurement"))}, errors=(400, 401, 422), body=ref(entry_schema))
    api(path + "/{measurementID}", "delete", delete_id, f"Delete one {title.lower()} entry of yours", {204: ("Deleted", None)},
        errors=(401, 404), params=[path_param("measurementID")])


measurement_history("/api/me/weights", "weight", "WeightEntry", "listWeights", "addWeight", "deleteWeight",
                    "Add a weight in kilograms or pounds (now, or dated in the past)")
measurement_history("/api/me/resting-heart-rates", "resting-heart-rate", "RestingHeartRateEntry", "listRestingHeartRates",
                    "addRestingHeartRate", "deleteRestingHeartRate", "Add a resting heart rate (now, or dated in the past)")
for kind, (unit, title, _) in MEASUREMENT_KINDS.items():
    camel = "".join(part.capitalize() for part in kind.split("-"))
    measurement_history(f"/api/me/measurements/{kind}", kind, "MeasurementEntry", f"listMeasurements{camel}",
                        f"addMeasurement{camel}", f"deleteMeasurement{camel}",
                        f"Add a {title.lower()} in {UNIT_NAMES.get(unit, unit)} (now, or dated in the past); the same for every measurement kind")

# MARK: Friends

TAG = "friends"
api("/api/users", "get", "searchUsers", "Find people by username or name, case-insensitively", {200: ("OK", ref("UserSearch"))},
    errors=(400, 401, 422), params=[query_param("query", "Text to look for")] + PAGE_PARAMS)
api("/api/friends", "get", "listFriends", "Your friends", {200: ("OK", ref("FriendList"))})
api("/api/friends/{userID}", "get", "getFriend", "A friend's read-only profile and shared workouts", {200: ("OK", ref("FriendProfile"))},
    errors=(400, 401, 404), params=[path_param("userID")] + PAGE_PARAMS)
api("/api/friends/{userID}", "delete", "removeFriend", "End a friendship (both ways)", {204: ("Removed", None)},
    errors=(401, 404), params=[path_param("userID")])
api("/api/friends/{userID}/workouts", "get", "listFriendWorkouts", "A friend's shared workouts", {200: ("OK", ref("WorkoutList"))},
    errors=(400, 401, 404), params=[path_param("userID")] + PAGE_PARAMS)
api("/api/friend-requests/incoming", "get", "listIncomingRequests", "Pending requests to you", {200: ("OK", ref("FriendRequestList"))})
api("/api/friend-requests/outgoing", "get", "listOutgoingRequests", "Your pending requests", {200: ("OK", ref("FriendRequestList"))})
api("/api/friend-requests", "post", "sendFriendRequest", "Ask someone to be friends; asking someone who asked you makes you friends",
    {201: ("Request sent", ref("FriendRequest")), 200: ("Already asked by them: now friends", ref("FriendList"))},
    errors=(400, 401, 404, 409, 422), body=ref("FriendRequestCreate"))
api("/api/friend-requests/{requestID}/accept", "post", "acceptFriendRequest", "Accept a request addressed to you",
    {204: ("Friends now", None)}, errors=(401, 404, 409), params=[path_param("requestID")])
api("/api/friend-requests/{requestID}/deny", "post", "denyFriendRequest", "Deny a request addressed to you",
    {204: ("Denied", None)}, errors=(401, 404, 409), params=[path_param("requestID")])

# MARK: Workouts

TAG = "workouts"
api("/api/workouts", "post", "uploadWorkout",
    "Upload a workout as Heartwork's JSON, a FIT, TCX or GPX file (by Content-Type; application/octet-stream is recognised by its content); "
    "the server stores a profile snapshot and derives summary, zones, calories and distance. The same activity again (a start within a second "
    "and the same device, or either device unknown) answers 409 with the Location of the one stored, unless the one stored is at least 5 s "
    "shorter (a cut copy uploaded first): then this one takes its place, keeping its id and sharing, and the answer is 200 with `replaced`",
    {201: ("Stored; Location names the full workout", ref("WorkoutCreated"), "Location"),
     200: ("Stored in place of a shorter, cut copy of the same activity (`replaced` says how long it was); Location names the workout",
           ref("WorkoutCreated"), "Location")}, errors=(400, 401, 409, 413, 415, 422, 429),
    body={"application/json": {"schema": ref("WorkoutUpload")},
          "application/vnd.ant.fit": {"schema": {"type": "string", "format": "binary",
                                                 "description": "A FIT activity file (Garmin, Wahoo, COROS, Polar, Zwift…)"}},
          "application/vnd.garmin.tcx+xml": {"schema": {"type": "string", "description": "A TCX (Training Center Database v2) activity"}},
          "application/gpx+xml": {"schema": {"type": "string", "description": "A GPX 1.1 track; heart rate in Garmin's TrackPointExtension v1 or v2"}},
          "application/octet-stream": {"schema": {"type": "string", "format": "binary", "description": "Any of the four, recognised by its content"}}})
operation("/api/workouts/{workoutID}/export", "get", "exportWorkout",
          "One of your workouts as a file: FIT, TCX, GPX (only with a GPS track; 409 otherwise) or Heartwork's JSON (the default), as an attachment", "workouts", {
    "200": {"description": "The file, as an attachment", "content": {
        "application/vnd.ant.fit": {"schema": {"type": "string", "format": "binary"}},
        "application/vnd.garmin.tcx+xml": {"schema": {"type": "string"}},
        "application/gpx+xml": {"schema": {"type": "string"}},
        "application/json": {"schema": ref("WorkoutUpload")}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "409": {"description": "GPX asked for a workout without a GPS track", "content": {"application/problem+json": {"schema": PROBLEM}}},
    "422": {"description": API_ERRORS[422], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("workoutID"), query_param("format", "fit, tcx, gpx or json (default)", {"type": "string", "enum": ["fit", "tcx", "gpx", "json"]})])
api("/api/workouts", "get", "listWorkouts", "Your workouts, newest first", {200: ("OK", ref("WorkoutList"))}, errors=(400, 401),
    params=PAGE_PARAMS + [query_param("from", "Start at or after (a date or an RFC 3339 date-time)"),
                          query_param("to", "Start before (a date or an RFC 3339 date-time)")])
api("/api/workouts/{workoutID}", "get", "getWorkout", "A workout with its streams: yours, or a friend's shared one",
    {200: ("OK", ref("WorkoutDetail"))}, errors=(401, 404), params=[path_param("workoutID")])
api("/api/workouts/{workoutID}", "delete", "deleteWorkout", "Delete one of your workouts", {204: ("Deleted", None)},
    errors=(401, 404), params=[path_param("workoutID")])
api("/api/workouts/{workoutID}/share", "put", "shareWorkout",
    "Share with friends; beyond your cap the oldest shared ones are unshared (409 when this one would be that oldest)",
    {200: ("OK", ref("WorkoutSummary"))}, errors=(401, 404, 409), params=[path_param("workoutID")])
api("/api/workouts/{workoutID}/share", "delete", "unshareWorkout", "Stop sharing", {200: ("OK", ref("WorkoutSummary"))},
    errors=(401, 404), params=[path_param("workoutID")])

# MARK: Gateways

TAG = "live"
api("/api/gateways", "post", "createGateway",
    "Create a gateway; its token (hwg_…) is in this answer only and is good for the gateway WebSocket alone",
    {201: ("Created", ref("Gateway"), "Location")}, errors=(400, 401, 409, 422), body=ref("GatewayName"))
api("/api/gateways", "get", "listGateways", "Your gateways, oldest first (never their tokens)",
    {200: ("OK", ref("GatewayList"))})
api("/api/gateways/{gatewayID}", "get", "getGateway", "One of your gateways", {200: ("OK", ref("Gateway"))},
    errors=(401, 404), params=[path_param("gatewayID")])
api("/api/gateways/{gatewayID}", "patch", "renameGateway", "Rename one of your gateways", {200: ("OK", ref("Gateway"))},
    errors=(400, 401, 404, 422), body=ref("GatewayName"), params=[path_param("gatewayID")])
api("/api/gateways/{gatewayID}", "delete", "revokeGateway", "Revoke one of your gateways: it and its token go at once; the sensors it heard and their readings stay",
    {204: ("Revoked", None)}, errors=(401, 404), params=[path_param("gatewayID")])

api("/api/live/gateway", "get", "checkGatewayToken",
    "The gateway WebSocket's address asked without an upgrade (a gateway finding out why its upgrade failed): 426 when the token "
    "(a bearer token or ?token=) is an active gateway token, 401 otherwise",
    {}, errors=(401, 426), public=True, params=[query_param("token", "The gateway token (hwg_…), for platforms that cannot set headers")])
api("/api/sensors", "get", "listSensors",
    "The straps your gateways have heard, with what each said last; oldest first, a page at a time (an account has at most 1,000)",
    {200: ("OK", ref("SensorList"))}, errors=(400, 401),
    params=[query_param("limit", "Sensors per page, 1–1000 (default 100)", {"type": "integer", "minimum": 1, "maximum": 1000}),
            query_param("offset", "Sensors to skip, 0–1000000 (default 0)", {"type": "integer", "minimum": 0, "maximum": 1000000})])
api("/api/sensors/{sensorID}", "get", "getSensor", "One of your sensors", {200: ("OK", ref("Sensor"))},
    errors=(401, 404), params=[path_param("sensorID")])
api("/api/sensors/{sensorID}", "patch", "renameSensor", "Name one of your sensors (an empty name clears it)", {200: ("OK", ref("Sensor"))},
    errors=(400, 401, 404, 422), body=ref("SensorName"), params=[path_param("sensorID")])
api("/api/sensors/{sensorID}", "delete", "deleteSensor",
    "Delete one of your sensors; readings=keep leaves its readings for the sessions that used it (it leaves the lists until a gateway hears it "
    "again), readings=delete deletes them with it. Players who wore it no longer do. The answer says which was done",
    {200: ("Deleted", ref("SensorRemoval"))}, errors=(400, 401, 404),
    params=[path_param("sensorID"), {**query_param("readings", "What happens to its readings (required)", {"type": "string", "enum": ["keep", "delete"]}),
                                     "required": True}])
api("/api/sensors/{sensorID}/heart-rate", "get", "sensorHeartRate",
    "What a sensor heard in [from, to) (default: the last 10 minutes; at most 24 hours): heart rate per second and every RR interval",
    {200: ("OK", ref("SensorHeartRate"))}, errors=(400, 401, 404, 422),
    params=[path_param("sensorID"), query_param("from", "Start (a date or an RFC 3339 date-time)"),
            query_param("to", "End, exclusive (a date or an RFC 3339 date-time)")])

# MARK: Teams (FitLabTeam: players, teams, team sessions)

TAG = "teams"
api("/api/players", "get", "listPlayers", "Your players, by name", {200: ("OK", ref("PlayerList"))})
api("/api/players", "post", "createPlayer",
    "Add a player: firstName and surname (both non-empty), or the older name alone (split at its last space); number is required by the web form, "
    "optional in the API for compatibility; sensorID must be one of your sensors",
    {201: ("Created", ref("Player"), "Location")}, errors=(400, 401, 409, 422), body=ref("PlayerCreate"))
api("/api/players/{playerID}", "get", "getPlayer", "One of your players", {200: ("OK", ref("Player"))}, errors=(401, 404), params=[path_param("playerID")])
api("/api/players/{playerID}", "patch", "updatePlayer",
    "Change a player; null clears an optional fact. A sensor already worn by a teammate is refused (409)",
    {200: ("OK", ref("Player"))}, errors=(400, 401, 404, 409, 422), body=ref("PlayerUpdate"), params=[path_param("playerID")])
api("/api/players/{playerID}", "delete", "deletePlayer", "Delete a player (saved sessions keep what they recorded)", {204: ("Deleted", None)},
    errors=(401, 404), params=[path_param("playerID")])
api("/api/players/{playerID}/photo", "put", "setPlayerPhoto", "A player's photo (PNG or JPEG, at most 5 MB, checked by content)",
    {204: ("Stored", None)}, errors=(401, 404, 413, 415), params=[path_param("playerID")],
    body={"image/png": {"schema": {"type": "string", "format": "binary"}}, "image/jpeg": {"schema": {"type": "string", "format": "binary"}}})
operation("/api/players/{playerID}/photo", "get", "getPlayerPhoto", "A player's photo", "teams", {
    "200": {"description": "The image", "content": {"image/png": {}, "image/jpeg": {}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("playerID")])
api("/api/teams", "get", "listTeams", "Your teams with their players, photo and session counts (saved, not reviewed)", {200: ("OK", ref("TeamList"))})
api("/api/teams", "post", "createTeam", "Create a team", {201: ("Created", ref("Team"), "Location")}, errors=(400, 401, 409, 422), body=ref("TeamName"))
api("/api/teams/{teamID}", "get", "getTeam", "A team and its players", {200: ("OK", ref("Team"))}, errors=(401, 404), params=[path_param("teamID")])
api("/api/teams/{teamID}", "patch", "renameTeam", "Rename a team", {200: ("OK", ref("Team"))}, errors=(400, 401, 404, 422),
    body=ref("TeamName"), params=[path_param("teamID")])
api("/api/teams/{teamID}/photo", "put", "setTeamPhoto", "A team's photo (PNG or JPEG, at most 5 MB, checked by content), as a player's",
    {204: ("Stored", None)}, errors=(401, 404, 413, 415), params=[path_param("teamID")],
    body={"image/png": {"schema": {"type": "string", "format": "binary"}}, "image/jpeg": {"schema": {"type": "string", "format": "binary"}}})
operation("/api/teams/{teamID}/photo", "get", "getTeamPhoto", "A team's photo", "teams", {
    "200": {"description": "The image", "content": {"image/png": {}, "image/jpeg": {}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("teamID")])
api("/api/teams/{teamID}", "delete", "deleteTeam", "Delete a team and its sessions; its players stay, in no team", {204: ("Deleted", None)},
    errors=(401, 404), params=[path_param("teamID")])
api("/api/teams/{teamID}/players/{playerID}", "put", "addTeamPlayer",
    "Put a player in the team (out of any other); refused (409) when a teammate already wears the player's sensor",
    {200: ("OK", ref("Player"))}, errors=(401, 404, 409, 422), params=[path_param("teamID"), path_param("playerID")])
api("/api/teams/{teamID}/players/{playerID}", "delete", "removeTeamPlayer", "Take a player out of the team", {204: ("Removed", None)},
    errors=(401, 404), params=[path_param("teamID"), path_param("playerID")])
api("/api/teams/{teamID}/board", "get", "teamBoard",
    "What the coach's screen starts from: the open session (with each player's TRIMP so far) or the team's players with sensors, and each sensor's last reading",
    {200: ("OK", ref("TeamBoard"))}, errors=(401, 404), params=[path_param("teamID")])
api("/api/teams/{teamID}/sessions", "get", "listTeamSessions",
    "The team's sessions, newest first; with context.* parameters, only those whose context has each setting named (a value that is not one of the seed's is 400)",
    {200: ("OK", ref("TeamSessionList"))}, errors=(400, 401, 404),
    params=[path_param("teamID")] + [query_param(f"context.{name}", f"Only sessions whose {name} is this", {"type": "string", "enum": values})
                                     for name, values in CONTEXT_VALUES.items()])
api("/api/teams/{teamID}/sessions", "post", "startTeamSession",
    "Start a session now or after a countdown; without players, every player of the team with a sensor takes part; a player's sensor may be swapped "
    "for this session only (players[].sensor; their own is unchanged). Unlike the coach screen, the API does not require the sensors to be connected "
    "(the raw feed is kept either way). One unsaved session per team (409)",
    {201: ("Started", ref("TeamSession"), "Location")}, errors=(400, 401, 404, 409, 422), body=ref("TeamSessionStart"), params=[path_param("teamID")])
api("/api/team-sessions/{sessionID}", "get", "getTeamSession", "One of your team sessions", {200: ("OK", ref("TeamSession"))},
    errors=(401, 404), params=[path_param("sessionID")])
api("/api/team-sessions/{sessionID}", "patch", "markTeamSession",
    "Set or clear the reviewed and exported flags; change the context (a member sets, null clears, absent keeps) or the artifact correction",
    {200: ("OK", ref("TeamSession"))}, errors=(400, 401, 404, 422), body=ref("TeamSessionFlags"), params=[path_param("sessionID")])
api("/api/team-sessions/{sessionID}", "delete", "discardTeamSession", "Discard (delete) a session; the readings stay in the raw feed",
    {204: ("Discarded", None)}, errors=(401, 404), params=[path_param("sessionID")])
api("/api/team-sessions/{sessionID}/stop", "post", "stopTeamSession", "Stop recording now (stopping a stopped session changes nothing)",
    {200: ("OK", ref("TeamSession"))}, errors=(401, 404), params=[path_param("sessionID")])
api("/api/team-sessions/{sessionID}/save", "post", "saveTeamSession", "Keep the session (stopping it first if it is recording)",
    {200: ("OK", ref("TeamSession"))}, errors=(401, 404), params=[path_param("sessionID")])
api("/api/team-sessions/{sessionID}/review", "get", "reviewTeamSession",
    "Each player's heart rate per second, time in zones, TRIMP, calories and HRV (Kubios-corrected RR; whole session and 5-minute windows)",
    {200: ("OK", ref("TeamSessionReview"))}, errors=(401, 404), params=[path_param("sessionID")])
operation("/api/team-sessions/{sessionID}/export", "get", "exportTeamSession",
          "The session as JSON (the review with every RR interval) or CSV (a row per player per second); sets the exported flag", "teams", {
    "200": {"description": "The export, as an attachment", "content": {"application/json": {"schema": ref("TeamSessionReview")}, "text/csv": {"schema": {"type": "string"}}}},
    "401": {"description": API_ERRORS[401], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
    "422": {"description": API_ERRORS[422], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("sessionID"), query_param("format", "json (default) or csv", {"type": "string", "enum": ["json", "csv"]})])

# MARK: Web pages

page("/", "get", "homePage", "Start page (signed in: redirects to your workouts)", [200, 303], public=True)
page("/signup", "get", "signupPage", "Sign-up form", [200], public=True)
page("/signup", "post", "signupForm", "Create an account and sign in", [303, 403, 409, 422],
     form={**{name: {"type": "string"} for name in ["username", "fullName", "email", "password"]},
           # Pocket PT's sign-up steps 2 and 3 (issue 25), all optional.
           "goal": {"type": "string", "enum": ["WeightLoss", "MuscleMaintenance", "MassGain"],
                    "description": "Step 2: the strength goal (reps per set 15 / 12 / 8)"},
           "lifestyle": {"type": "string", "enum": ["sedentary", "low-active", "active", "high-active"],
                         "description": "Step 2: how active the user's days are; left out, it is assumed low active and the nutrition page says so"},
           "feedback": {"type": "string", "enum": ["no", "yes"], "description": "Step 3: send the motivation message to a webhook as well"},
           "webhookUrl": {"type": "string", "description": "Step 3, with feedback=yes: the webhook's http(s) URL"}}, public=True)
page("/login", "get", "loginPage", "Sign-in form", [200], params=[query_param("next", "Where to go afterwards")], public=True)
page("/login", "post", "loginForm", "Sign in: sets the HttpOnly, SameSite session cookie", [303, 401, 403, 429],
     form={name: {"type": "string"} for name in ["username", "password", "next"]}, public=True)
# Signing out without a session (or without a body) is a no-op that redirects home.
page("/logout", "post", "logoutForm", "Sign out", [303], form=dict(CSRF), public=True, form_required=False)
page("/settings", "get", "settingsPage", "Sharing settings and password", [200, 401])
page("/settings", "post", "settingsForm", "Save sharing settings", [303, 401, 403, 422],
     form={**CSRF, "autoShareWorkouts": {"type": "string"}, "maxSharedWorkouts": {"type": "string"}})
page("/settings/password", "post", "passwordForm", "Change the password", [303, 401, 403, 422],
     form={**CSRF, "currentPassword": {"type": "string"}, "newPassword": {"type": "string"}})
operation("/settings/export", "get", "accountExportDownload", "Download all my data: the archive of GET /api/me/export, for the settings page's link", "web", {
    "200": {"description": "The ZIP archive, as an attachment", "content": {"application/zip": {"schema": {"type": "string", "format": "binary"}}}},
    "400": {"description": "HTML page", "content": {"text/html": {"schema": {"type": "string"}}}},
    "401": {"description": "HTML page", "content": {"text/html": {"schema": {"type": "string"}}}},
})
page("/settings/delete", "post", "deleteAccountForm", "Delete the account with the password; signs out and redirects to the sign-in page",
     [303, 401, 403, 422], form={**CSRF, "password": {"type": "string"}})
page("/profile", "get", "profilePage", "Your profile, zones, weight chart and histories", [200, 401])
page("/profile", "post", "profileForm", "Save profile fields", [303, 401, 403, 422],
     form={**CSRF, **{name: {"type": "string"} for name in [
         "fullName", "email", "status", "dateOfBirth", "sex", "heightCentimeters", "maxHeartRateMethod", "measuredMaxHeartRate", "units"]}})
page("/profile/weights", "post", "weightForm", "Add a weight (in your units)", [303, 401, 403, 422], form={**CSRF, "weight": {"type": "string"}})
page("/profile/resting-heart-rates", "post", "restingForm", "Add a resting heart rate", [303, 401, 403, 422],
     form={**CSRF, "bpm": {"type": "string"}})
page("/friends", "get", "friendsPage", "Friends, requests and search", [200, 401], params=[query_param("q", "Search text")])
page("/friends/requests", "post", "friendRequestForm", "Send a friend request", [303, 401, 403, 404, 409, 422], form={**CSRF, "userID": {"type": "string"}})
page("/friends/requests/{requestID}/{answer}", "post", "answerFriendRequestForm", "Accept or deny a request addressed to you",
     [303, 401, 403, 404], form=dict(CSRF), params=[path_param("requestID"), path_param("answer", ["accept", "deny"])])
page("/friends/{userID}", "get", "friendPage", "A friend's profile and shared workouts", [200, 401, 404], params=[path_param("userID")])
page("/friends/{userID}/remove", "post", "removeFriendForm", "End a friendship", [303, 401, 403, 404], form=dict(CSRF),
     params=[path_param("userID")])
page("/workouts", "get", "workoutsPage", "Your workouts", [200, 401],
     params=[query_param("page", "Page number", {"type": "integer"})])
page("/workouts/upload", "get", "uploadPage", "Upload a workout file", [200, 401])
page("/workouts/{workoutID}", "get", "workoutPage", "A workout: heart rate by zone, time in zones, route", [200, 401, 404],
     params=[path_param("workoutID")])
page("/workouts/{workoutID}/{action}", "post", "workoutActionForm", "Delete, share or unshare one of your workouts",
     [303, 401, 403, 404], form=dict(CSRF), params=[path_param("workoutID"), path_param("action", ["delete", "share", "unshare"])])
page("/teams", "get", "teamsPage", "Teams, players, sensors and gateways", [200, 401])
page("/teams", "post", "createTeamForm", "Create a team", [303, 401, 403, 409, 422], form={**CSRF, "name": {"type": "string"}})
page("/players", "post", "createPlayerForm", "Add a player (first name, surname and number required)", [303, 401, 403, 409, 422],
     form={**CSRF, **{name: {"type": "string"} for name in [
    "firstName", "surname", "number", "teamID", "sensorID", "restingHeartRate", "maximumHeartRate"]}})
page("/gateways", "post", "createGatewayForm", "Create a gateway: the page shows its token once", [200, 401, 403, 409, 422], form={**CSRF, "name": {"type": "string"}})
page("/gateway", "get", "gatewayPage", "This device as a gateway: chest straps through Web Bluetooth, forwarded over the gateway protocol", [200, 401])
page("/gateways/{gatewayID}/revoke", "post", "revokeGatewayForm", "Revoke a gateway", [303, 401, 403, 404], form=dict(CSRF), form_required=False, params=[path_param("gatewayID")])
page("/sensors/{sensorID}", "post", "renameSensorForm", "Name a sensor", [303, 401, 403, 404, 422], form={**CSRF, "name": {"type": "string"}},
     params=[path_param("sensorID")])
page("/sensors/{sensorID}/delete", "post", "deleteSensorForm", "Delete a sensor, keeping or deleting its readings (the next page says which)",
     [303, 401, 403, 404, 422], form={**CSRF, "readings": {"type": "string", "enum": ["keep", "delete"]}}, form_required=False, params=[path_param("sensorID")])
page("/teams/{teamID}", "get", "teamPage", "A team: players and their sensors, sessions (filtered by context when asked)", [200, 401, 404],
     params=[path_param("teamID")] + [query_param(name, f"Only sessions whose {name} is this", {"type": "string", "enum": [""] + values})
                                      for name, values in CONTEXT_VALUES.items()])
page("/teams/{teamID}", "post", "renameTeamForm", "Rename a team", [303, 401, 403, 404, 422], form={**CSRF, "name": {"type": "string"}},
     params=[path_param("teamID")])
page("/teams/{teamID}/delete", "post", "deleteTeamForm", "Delete a team (its players stay)", [303, 401, 403, 404], form=dict(CSRF), form_required=False, params=[path_param("teamID")])
page("/teams/{teamID}/players", "post", "addTeamPlayerForm", "Put a player in the team", [303, 401, 403, 404, 409, 422],
     form={**CSRF, "playerID": {"type": "string"}}, params=[path_param("teamID")])
page("/teams/{teamID}/players/{playerID}/remove", "post", "removeTeamPlayerForm", "Take a player out of the team", [303, 401, 403, 404],
     form=dict(CSRF), form_required=False, params=[path_param("teamID"), path_param("playerID")])
page("/teams/{teamID}/players/{playerID}/sensor", "post", "assignSensorForm", "Give a player their sensor", [303, 401, 403, 404, 409, 422],
     form={**CSRF, "sensorID": {"type": "string"}}, params=[path_param("teamID"), path_param("playerID")])
page("/teams/{teamID}/sessions", "post", "startSessionForm",
     "Start a session (now or after a countdown) with the players picked (players[]), each wearing their own sensor or the one chosen for this "
     "session only (sensor[<player id>]); on the web only players whose sensor is connected (heard in the last 10 s) can take part (422 otherwise, "
     "nothing started)", [303, 401, 403, 404, 409, 422],
     form={**CSRF, "countdownSeconds": {"type": "string"}, "durationMinutes": {"type": "string"},
           **{name: {"type": "string", "enum": [""] + values} for name, values in CONTEXT_VALUES.items()},
           "players[]": {"type": "array", "items": {"type": "string"}, "description": "The ids of the players who take part (at least one)"}},
     params=[path_param("teamID")])
page("/teams/{teamID}/live", "get", "coachPage", "The coach's big screen: a live tile per player", [200, 401, 404], params=[path_param("teamID")])
page("/team-sessions/{sessionID}", "get", "teamSessionPage", "A session's review: the team side by side, each player's heart rate, zones, TRIMP, calories and HRV",
     [200, 401, 404], params=[path_param("sessionID")])
page("/team-sessions/{sessionID}/{action}", "post", "teamSessionActionForm",
     "Stop, save, discard, or mark a session (not) reviewed; change its context or its artifact correction", [303, 401, 403, 404, 422],
     form={**CSRF, **{name: {"type": "string", "enum": [""] + values} for name, values in CONTEXT_VALUES.items()},
           "correction": {"type": "string", "enum": ["kubios", "fitlab"]}}, form_required=False,
     params=[path_param("sessionID"), path_param("action", ["stop", "save", "discard", "reviewed", "unreviewed", "context", "correction"])])
page("/players/{playerID}", "get", "playerPage", "A player", [200, 401, 404], params=[path_param("playerID")])
page("/players/{playerID}", "post", "playerForm", "Save a player", [303, 401, 403, 404, 409, 422], form={**CSRF, **{name: {"type": "string"} for name in [
    "firstName", "surname", "number", "birthDate", "sex", "restingHeartRate", "maximumHeartRate", "weightKilograms", "teamID", "sensorID"]}},
     params=[path_param("playerID")])
page("/players/{playerID}/delete", "post", "deletePlayerForm", "Delete a player", [303, 401, 403, 404], form=dict(CSRF), form_required=False, params=[path_param("playerID")])
operation("/static/{file}", "get", "staticFile", "Stylesheets, scripts, icons and the manifest of the web app", "web", {
    "200": {"description": "The file", "content": {"text/css": {}, "text/javascript": {}, "image/svg+xml": {}, "image/png": {}, "application/manifest+json": {}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("file")], public=True)
operation("/static/exercises/{file}", "get", "exercisePicture",
          "An exercise's picture: a line drawing of its movement (SVG in currentColor, CC0-1.0; the exercise's image member names it)", "web", {
    "200": {"description": "The picture (Cache-Control: public, max-age=86400)", "content": {"image/svg+xml": {}}},
    "404": {"description": API_ERRORS[404], "content": {"application/problem+json": {"schema": PROBLEM}}},
}, params=[path_param("file")], public=True)
operation("/manifest.webmanifest", "get", "webAppManifest", "The web app manifest (name, icons, start page) that makes Heartwork installable", "web", {
    "200": {"description": "The file", "content": {"application/manifest+json": {}}},
}, public=True)
operation("/sw.js", "get", "serviceWorker", "The service worker: the app shell cached so /gateway and /record open offline (Cache-Control: no-cache)", "web", {
    "200": {"description": "The file", "content": {"text/javascript": {}}},
}, public=True)

# MARK: Strength and nutrition (Pocket PT)

TAG = "strength"
GOAL = {"type": "string", "enum": ["WeightLoss", "MuscleMaintenance", "MassGain"]}
LIFESTYLE = {"type": "string", "enum": ["sedentary", "low-active", "active", "high-active"]}
api("/api/exercises", "get", "listExercises", "The exercise catalogue with your statistics (weights in your unit), alphabetical; ?group= one of the six or All",
    {200: ("OK", ref("ExerciseList"))}, errors=(400, 401), params=[query_param("group", "Chest, Shoulders, Arms, Back, Legs, Abs or All")])
api("/api/exercises", "post", "createExercise",
    "Create an exercise of your own (only you see it; it keeps a history and 1RM like the catalogue's); its name must not read like a catalogue exercise's or one of yours",
    {201: ("Created", ref("Exercise"), "Location")}, errors=(400, 401, 409, 422),
    body=obj({"name": {"type": "string", "minLength": 1, "maxLength": 80}, "group": {"type": "string", "enum": ["Chest", "Shoulders", "Arms", "Back", "Legs", "Abs"]},
              "equipment": {"type": "string", "description": "barbell, dumbbell, kettlebell, cable, machine, bodyweight, band, ez-bar, smith-machine, trap-bar, plate, landmine, medicine-ball, bench, pull-up-bar or other (the default)"},
              "measure": {"type": "string", "enum": ["reps", "seconds"], "description": "What a set counts (default reps; seconds for a hold)"}},
             required=["name", "group"]))
api("/api/exercises/{exerciseID}", "get", "getExercise", "An exercise, your statistics and your estimated 1RM session by session",
    {200: ("OK", ref("ExerciseDetail"))}, errors=(401, 404), params=[path_param("exerciseID")])
api("/api/exercises/{exerciseID}/reset", "post", "resetExercise",
    "Send an exercise back to the cold start (next time one baseline set: 5 kg or the empty bar, whichever is heavier; a Maximum hold for a timed exercise)",
    {200: ("OK", ref("Exercise"))}, errors=(401, 404), params=[path_param("exerciseID")])
api("/api/routines", "get", "listRoutines", "Your routines in your order, then the built-in ones", {200: ("OK", ref("RoutineList"))})
api("/api/routines", "post", "createRoutine", "Create a routine: exercises in the order they are done", {201: ("Created", ref("Routine"), "Location")},
    errors=(400, 401, 409, 422), body=ref("RoutineInput"))
api("/api/routines/order", "put", "orderRoutines", "Order your routines: every one of their ids once", {200: ("OK", ref("RoutineList"))},
    errors=(400, 401, 422), body=obj({"order": array({"type": "string"})}, required=["order"]))
api("/api/routines/{routineID}", "get", "getRoutine", "A routine (built-in or yours)", {200: ("OK", ref("Routine"))}, errors=(401, 404),
    params=[path_param("routineID")])
api("/api/routines/{routineID}", "put", "updateRoutine", "Change one of your routines", {200: ("OK", ref("Routine"))},
    errors=(400, 401, 404, 409, 422), body=ref("RoutineInput"), params=[path_param("routineID")])
api("/api/routines/{routineID}", "delete", "deleteRoutine", "Delete one of your routines (sessions done with it are kept)", {204: ("Deleted", None)},
    errors=(401, 404), params=[path_param("routineID")])
api("/api/strength/suggestion", "get", "strengthSuggestion", "Which routine of your goal to do today, resting what you trained yesterday, and why",
    {200: ("OK", ref("StrengthSuggestion"))})
api("/api/strength/settings", "get", "getStrengthSettings", "Goal, lifestyle, plate step, bar weight, disclaimer, webhook", {200: ("OK", ref("StrengthSettings"))})
api("/api/strength/settings", "put", "updateStrengthSettings",
    "Change goal, lifestyle, plate step (null: whole kg), bar weight (5–30 kg; null: the Olympic 20 kg), webhook URL (null: off), "
    "accept the disclaimer, make a new webhook secret",
    {200: ("OK", ref("StrengthSettings"))}, errors=(400, 401, 422), body=ref("StrengthSettingsUpdate"))
api("/api/strength/sessions", "post", "startStrengthSession",
    "Start a session from a routine: the prescribed sets (needs the disclaimer accepted; `sensor` links one of your straps). "
    "Your own exercises are prescribed like the catalogue's; one the routine names that is gone is left out (409 when none is left)",
    {201: ("Started", ref("StrengthSession"), "Location")}, errors=(400, 401, 403, 404, 409, 422),
    body=obj({"routine": {"type": "string"}, "sensor": {"type": "string"}}, required=["routine"]))
api("/api/strength/sessions", "get", "listStrengthSessions", "Your sessions, newest first (from/to bound the start)",
    {200: ("OK", ref("StrengthSessionList"))}, errors=(400, 401),
    params=[query_param("from", "A date or date-time"), query_param("to", "A date or date-time (exclusive)"),
            query_param("limit", "At most this many (1–100)", {"type": "integer"}), query_param("offset", "Skip this many", {"type": "integer"})])
api("/api/strength/sessions/{sessionID}", "get", "getStrengthSession", "A session with its sets (and heart rate per set when it has some)",
    {200: ("OK", ref("StrengthSession"))}, errors=(401, 404), params=[path_param("sessionID")])
api("/api/strength/sessions/{sessionID}", "delete", "discardStrengthSession",
    "Discard a session of yours with its sets: a started one you will not finish, or a finished or imported one (the 1RMs it raised stay)",
    {204: ("Deleted", None)}, errors=(401, 404), params=[path_param("sessionID")])
api("/api/strength/sessions/{sessionID}/sets/{n}", "put", "logStrengthSet",
    "Log set n (1… across the session): reps (seconds for a set whose measure is seconds; null: back to the Maximum placeholder), "
    "weight in your unit or weightKg, done. "
    "A finished session can be corrected for 24 hours",
    {200: ("OK", ref("StrengthSession"))}, errors=(400, 401, 404, 409, 422), body=ref("StrengthSetUpdate"),
    params=[path_param("sessionID"), path_param("n")])
api("/api/strength/sessions/{sessionID}/finish", "post", "finishStrengthSession",
    "Finish with a review and two 0–5 ratings: totals, the 1RMs that rose, the motivation message",
    {200: ("OK", ref("StrengthFinish"))}, errors=(400, 401, 404, 409, 422),
    body=obj({"review": {"type": "string", "maxLength": 5000}, "enjoyment": {"type": "integer", "minimum": 0, "maximum": 5},
              "difficulty": {"type": "integer", "minimum": 0, "maximum": 5}}, required=["enjoyment", "difficulty"]),
    params=[path_param("sessionID")])
api("/api/strength/import", "post", "importStrengthLog",
    "Import a Strong or Hevy CSV export (at most 64 MB): past sessions and 1RMs; what was mapped and what not. The file streams to the server and "
    "becomes a job on the queue: 200 with the summary when it is done within 10 s, else 202 with the import to follow (Location); "
    "a file whose header is not an export's is refused at once (422); two imports of any kind may be open at once (429)",
    {200: ("Imported", ref("StrengthImport"), "Content-Location"), 202: ("Queued or running: follow Location", ref("StrengthImportStatus"), "Location")},
    errors=(401, 415, 422, 429),
    body={"text/csv": {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}}})
api("/api/strength/imports/{importID}", "get", "getStrengthImport", "A Strong or Hevy import: its state, progress, and summary once done",
    {200: ("OK", ref("StrengthImportStatus"))}, errors=(401, 404), params=[path_param("importID")])
api("/api/nutrition", "get", "getNutrition", "Your daily energy (Gerrior TEE) and macronutrients for your goal and lifestyle",
    {200: ("OK", ref("Nutrition"))})
page("/strength", "get", "strengthPage", "Strength: today's suggestion, your routines, the built-in ones, recent sessions", [200, 401])
page("/strength/disclaimer", "get", "strengthDisclaimerPage", "The safety note shown before the first session", [200, 401],
     params=[query_param("next", "Where to go after accepting")])
page("/strength/disclaimer", "post", "acceptDisclaimerForm", "Accept the safety note", [303, 401, 403], form={**CSRF, "next": {"type": "string"}}, form_required=False)
page("/strength/goals", "get", "strengthGoalsPage", "What the three strength goals mean (public: sign-up links to it)", [200], public=True)
page("/strength/exercises", "get", "exercisesPage", "The exercise library by muscle group", [200, 401], params=[query_param("group", "A muscle group")])
page("/strength/exercises", "post", "createExerciseForm", "Add an exercise of your own", [303, 401, 403, 409, 422],
     form={**CSRF, "name": {"type": "string"}, "group": {"type": "string"}, "equipment": {"type": "string"}, "timed": {"type": "string"}})
page("/strength/exercises/{exerciseID}", "get", "exercisePage", "An exercise: how, your statistics, your progress", [200, 401, 404],
     params=[path_param("exerciseID")])
page("/strength/exercises/{exerciseID}/reset", "post", "resetExerciseForm", "Reset an exercise to the cold start", [303, 401, 403, 404],
     form=dict(CSRF), form_required=False, params=[path_param("exerciseID")])
ROUTINE_FORM = {**CSRF, "name": {"type": "string"}, "goal": {"type": "string"}, "description": {"type": "string"}, "order": {"type": "string"},
                "exercises[]": {"type": "array", "items": {"type": "string"}}}
page("/strength/routines/new", "get", "newRoutinePage", "The form for a new routine", [200, 401])
page("/strength/routines", "post", "createRoutineForm", "Create a routine", [303, 401, 403, 409, 422], form=ROUTINE_FORM)
page("/strength/routines/{routineID}", "get", "routinePage", "A routine: its exercises and Start", [200, 401, 404], params=[path_param("routineID")])
page("/strength/routines/{routineID}", "post", "updateRoutineForm", "Change one of your routines", [303, 401, 403, 404, 409, 422], form=ROUTINE_FORM,
     params=[path_param("routineID")])
page("/strength/routines/{routineID}/edit", "get", "editRoutinePage", "The form to change one of your routines", [200, 401, 403, 404],
     params=[path_param("routineID")])
page("/strength/routines/{routineID}/delete", "post", "deleteRoutineForm", "Delete one of your routines", [303, 401, 403, 404],
     form=dict(CSRF), form_required=False, params=[path_param("routineID")])
page("/strength/routines/{routineID}/move/{direction}", "post", "moveRoutineForm", "Move one of your routines up or down", [303, 401, 403, 404, 422],
     form=dict(CSRF), form_required=False, params=[path_param("routineID"), path_param("direction", ["up", "down"])])
page("/strength/sessions", "post", "startStrengthSessionForm", "Start a session from a routine", [303, 401, 403, 404, 422],
     form={**CSRF, "routine": {"type": "string"}, "sensor": {"type": "string"}})
page("/strength/sessions/{sessionID}", "get", "strengthSessionPage", "The session screen: sets to log, then the result", [200, 401, 404],
     params=[path_param("sessionID")])
page("/strength/sessions/{sessionID}/sets/{n}", "post", "logSetForm", "Log a set", [303, 401, 403, 404, 409, 422],
     form={**CSRF, "reps": {"type": "string"}, "weight": {"type": "string"}, "done": {"type": "string"}},
     params=[path_param("sessionID"), path_param("n")])
page("/strength/sessions/{sessionID}/discard", "post", "discardSessionForm", "Discard a session (back to /strength with a notice)",
     [303, 401, 403, 404], form=dict(CSRF), form_required=False, params=[path_param("sessionID")])
page("/strength/sessions/{sessionID}/finish", "post", "finishSessionForm", "Finish a session", [303, 401, 403, 404, 409, 422],
     form={**CSRF, "review": {"type": "string"}, "enjoyment": {"type": "string"}, "difficulty": {"type": "string"}}, params=[path_param("sessionID")])
page("/strength/history", "get", "strengthHistoryPage", "Past sessions: a month's calendar and the list", [200, 401],
     params=[query_param("month", "YYYY-MM"), query_param("day", "A day of that month")])
page("/strength/settings", "get", "strengthSettingsPage", "Strength settings", [200, 401])
page("/strength/settings", "post", "strengthSettingsForm", "Save strength settings", [303, 401, 403, 422],
     form={**CSRF, "goal": {"type": "string"}, "lifestyle": {"type": "string"}, "plateStep": {"type": "string"}, "barKg": {"type": "string"},
           "webhookUrl": {"type": "string"},
           "next": {"type": "string"}}, form_required=False)
page("/strength/settings/secret", "post", "newWebhookSecretForm", "Make a new webhook secret", [303, 401, 403], form=dict(CSRF), form_required=False)
page("/strength/import", "get", "strengthImportPage", "Import from Strong or Hevy", [200, 401])
page("/strength/import", "post", "strengthImportForm",
     "Import a pasted or chosen CSV export: its summary when done within 10 s, else 303 to the import's page", [200, 303, 401, 403, 422, 429],
     form={**CSRF, "csv": {"type": "string"}})
page("/strength/imports/{importID}", "get", "strengthImportStatusPage", "A Strong or Hevy import: its progress (the page reloads itself), then its summary",
     [200, 401, 404], params=[path_param("importID")])
page("/nutrition", "get", "nutritionPage", "Daily energy and macronutrients", [200, 401])


# MARK: Matches and notifications (HeartMate)

TAG = "matches"
api("/api/matches", "post", "createMatch",
    "Challenge a friend to a live match ({opponent, minutes 1–120, practice}) or start a ghost race against a workout ({ghost}); docs/PROTOCOL.md §10",
    {201: ("Created", ref("Match"), "Location")}, errors=(400, 401, 422, 429), body=ref("MatchCreate"))
api("/api/matches", "get", "listMatches", "Your matches (either side, or your workout raced as a ghost), newest first",
    {200: ("OK", ref("MatchList"))}, errors=(400, 401), params=[query_param("limit", "At most this many (1–100; a page holds at most 50)", {"type": "integer"}),
                                                                query_param("offset", "Skip this many", {"type": "integer"})])
api("/api/matches/{matchID}", "get", "getMatch", "A match and, once finished, its result", {200: ("OK", ref("Match"))}, errors=(401, 404),
    params=[path_param("matchID")])
api("/api/matches/{matchID}/accept", "post", "acceptMatch", "Accept an invitation (the invited friend only)", {200: ("OK", ref("Match"))},
    errors=(401, 404, 409, 422), params=[path_param("matchID")])
api("/api/matches/{matchID}/decline", "post", "declineMatch", "Decline an invitation (the invited friend only)", {200: ("OK", ref("Match"))},
    errors=(401, 404, 409), params=[path_param("matchID")])
api("/api/matches/{matchID}/workout", "post", "saveMatchWorkout",
    "Save your side of a finished match as a workout of yours (once; not if you ended it early)",
    {201: ("Stored; Location names the full workout", ref("WorkoutCreated"), "Location")}, errors=(401, 404, 409, 422),
    params=[path_param("matchID")])
api("/api/notifications", "get", "listNotifications", "Your notifications, newest first, with the unread count", {200: ("OK", ref("NotificationList"))},
    errors=(400, 401), params=[query_param("limit", "At most this many (1–100)", {"type": "integer"}),
                               query_param("offset", "Skip this many", {"type": "integer"})])
api("/api/notifications/read", "post", "markAllNotificationsRead", "Mark every notification read", {200: ("OK", ref("Unread"))})
api("/api/notifications/{notificationID}/read", "post", "markNotificationRead", "Mark one notification read", {200: ("OK", ref("Unread"))}, errors=(401, 404),
    params=[path_param("notificationID")])
page("/matches", "get", "matchesPage", "Matches: challenges to answer, open matches, history", [200, 401])
page("/matches", "post", "challengeForm", "Challenge a friend", [303, 401, 403, 409, 422, 429], form={**CSRF, "opponent": {"type": "string"}, "minutes": {"type": "string"}})
page("/matches/ghost", "post", "ghostForm", "Race a workout as a ghost", [303, 401, 403, 409, 422], form={**CSRF, "workoutID": {"type": "string"}})
page("/matches/{matchID}", "get", "matchPage", "A match: the room (lobby, countdown, live scores) or its result", [200, 401, 404],
     params=[path_param("matchID")])
page("/matches/{matchID}/{answer}", "post", "matchAnswerForm", "Accept or decline a challenge, or save a finished match as a workout", [303, 401, 403, 404, 409, 422],
     form=dict(CSRF), form_required=False, params=[path_param("matchID"), path_param("answer", ["accept", "decline", "workout"])])
page("/notifications", "get", "notificationsPage", "Your notifications", [200, 401])
page("/notifications/read", "post", "readNotificationsForm", "Mark every notification read", [303, 401, 403], form=dict(CSRF), form_required=False)

# MARK: Schemas

DATE_TIME = {"type": "string", "format": "date-time"}
SEX = nullable("string", enum=["male", "female", None])
METHOD = {"type": "string", "enum": ["gellish", "fox", "tanaka", "measured"]}
UNITS = {"type": "string", "enum": ["metric", "imperial"]}

PLAYER_FIELDS = {
    "firstName": {"type": "string", "minLength": 1, "maxLength": 80, "description": "FitLabTeam's Name (issue 25)"},
    "surname": {"type": "string", "minLength": 1, "maxLength": 80,
                "description": "FitLabTeam's Surname, required with firstName: write one even for someone known by one name"},
    "name": {"type": "string", "minLength": 1, "maxLength": 80,
             "description": "Before issue 25: the whole name in one line, split at its last space (one word: no surname). Not with firstName or surname"},
    "number": nullable("string", maxLength=10, description="Shirt or bib number: required by the web form, optional in the API for compatibility"),
    "birthDate": nullable("string", format="date"), "sex": SEX, "restingHeartRate": nullable("integer", minimum=25, maximum=150),
    "maximumHeartRate": nullable("integer", minimum=100, maximum=250), "weightKilograms": nullable("number", minimum=20, maximum=300),
    "teamID": nullable("string"), "sensorID": nullable("string"),
}

schemas = {
    "Problem": obj({
        "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer"},
        "detail": {"type": "string", "description": "The precise, technical account, for scripts and logs"},
        "message": {"type": "string", "description": "For people: what happened and what to do, in a sentence (what the web app shows)"},
        "field": nullable("string", description="The request field at fault, as a JSON path such as track[3].lat"),
        "errors": array(obj({"field": {"type": "string"}, "detail": {"type": "string"}}, required=["field", "detail"]),
                        description="Every field at fault, when a request has several mistakes (the first is also field and detail)"),
    }, required=["type", "title", "status", "detail", "message"]),
    "Health": obj({"status": {"type": "string"}, "database": {"type": "string"}}, required=["status", "database"]),
    "RegisterRequest": obj({
        "username": {"type": "string", "pattern": "^[A-Za-z0-9._-]{3,30}$", "description": "Unique, case-insensitively"},
        "fullName": {"type": "string", "minLength": 1, "maxLength": 100},
        "email": {"type": "string", "format": "email"},
        "password": {"type": "string", "minLength": 8},
        "timeZone": {"type": "string", "description": "An IANA time zone such as Europe/Vienna (pages show times there); UTC when left out"},
        "goal": {**GOAL, "description": "Your strength goal, as sign-up asks (optional; MuscleMaintenance when left out)"},
        "lifestyle": {**LIFESTYLE, "description": "Your lifestyle for nutrition, as sign-up asks (optional; left out: low-active, assumed until you pick one)"},
    }, required=["username", "fullName", "email", "password"]),
    "LoginRequest": obj({"username": {"type": "string"}, "password": {"type": "string"}}, required=["username", "password"]),
    "LoginResponse": obj({
        "token": {"type": "string", "description": "Send as Authorization: Bearer <token>"}, "expiresAt": DATE_TIME, "user": ref("Profile"),
    }, required=["token", "expiresAt", "user"]),
    "DeleteAccountRequest": obj({"password": {"type": "string"}}, ["password"]),
    "ChangePasswordRequest": obj({"currentPassword": {"type": "string"}, "newPassword": {"type": "string", "minLength": 8}},
                                 required=["currentPassword", "newPassword"]),
    "Settings": obj({"autoShareWorkouts": {"type": "boolean"}, "maxSharedWorkouts": {"type": "integer"}},
                    required=["autoShareWorkouts", "maxSharedWorkouts"]),
    "SettingsUpdate": obj({"autoShareWorkouts": {"type": "boolean"}, "maxSharedWorkouts": {"type": "integer", "minimum": 0, "maximum": 500}}),
    "Profile": obj({
        "id": {"type": "string"}, "username": {"type": "string"}, "fullName": {"type": "string"}, "email": {"type": "string"},
        "status": {"type": "string"}, "dateOfBirth": nullable("string", format="date"), "ageYears": nullable("integer"), "sex": SEX,
        "heightMeters": nullable("number"), "weightKilograms": nullable("number"), "restingHeartRate": nullable("number"),
        "maxHeartRate": obj({"method": METHOD, "measured": nullable("number"), "bpm": nullable("number")}, required=["method"]),
        "units": UNITS, "timeZone": nullable("string"), "hasPhoto": {"type": "boolean"}, "photoURL": nullable("string"),
        "settings": ref("Settings"), "createdAt": DATE_TIME,
    }, required=["id", "username", "fullName", "email", "status", "maxHeartRate", "units", "hasPhoto", "settings", "createdAt"]),
    "ProfileUpdate": obj({
        "fullName": {"type": "string"}, "email": {"type": "string"}, "status": {"type": "string", "maxLength": 280},
        "dateOfBirth": nullable("string", format="date"), "sex": SEX,
        "heightMeters": nullable("number", minimum=0.5, maximum=2.6), "maxHeartRateMethod": METHOD,
        "measuredMaxHeartRate": nullable("number", minimum=100, maximum=250), "units": UNITS,
        "timeZone": nullable("string", description="An IANA time zone such as Europe/Vienna; null for UTC"),
    }),
    "PublicProfile": obj({
        "id": {"type": "string"}, "username": {"type": "string"}, "fullName": {"type": "string"}, "status": {"type": "string"},
        "photoURL": nullable("string"),
    }, required=["id", "username", "fullName", "status"]),
    "Gateway": obj({
        "id": {"type": "string"}, "name": {"type": "string"}, "createdAt": DATE_TIME, "lastSeenAt": DATE_TIME,
        "token": {"type": "string", "description": "Only when the gateway was just created: keep it, it is not shown again"},
    }, required=["id", "name", "createdAt"]),
    "GatewayList": obj({"gateways": array(ref("Gateway"))}, required=["gateways"]),
    "GatewayName": obj({"name": {"type": "string", "minLength": 1, "maxLength": 60}}, required=["name"]),
    "Sensor": obj({
        "id": {"type": "string"}, "address": {"type": "string"}, "name": {"type": "string"}, "gatewayID": {"type": "string"},
        "createdAt": DATE_TIME, "lastSeenAt": DATE_TIME, "lastBpm": {"type": "integer"},
        "contact": {"type": "string", "enum": ["not-supported", "not-detected", "detected"]}, "battery": {"type": "integer"},
        "connected": {"type": "boolean", "description": "Heard in the last 10 seconds"},
        "assignedPlayers": array(obj({"id": {"type": "string"}, "name": {"type": "string"}, "teamID": {"type": "string"}}, required=["id", "name"]),
                                 description="The players who wear it by default (at most one per team)"),
    }, required=["id", "address", "createdAt", "connected", "assignedPlayers"]),
    "SensorRemoval": obj({"id": {"type": "string"}, "readings": {"type": "string", "enum": ["kept", "deleted"], "description": "What was done with its readings"}},
                         required=["id", "readings"]),
    "Player": obj({
        "id": {"type": "string"}, "name": {"type": "string", "description": "First name and surname in one line"},
        "firstName": {"type": "string"}, "surname": {"type": "string", "description": "Empty when not given (a one-word name stored before issue 25)"},
        "number": {"type": "string"}, "birthDate": {"type": "string", "format": "date"},
        "sex": {"type": "string", "enum": ["male", "female"]}, "restingHeartRate": {"type": "integer"}, "maximumHeartRate": {"type": "integer"},
        "weightKilograms": {"type": "number"}, "teamID": {"type": "string"}, "sensorID": {"type": "string"}, "createdAt": DATE_TIME,
        "hasPhoto": {"type": "boolean"}, "photoURL": {"type": "string"},
    }, required=["id", "name", "firstName", "surname", "createdAt", "hasPhoto"]),
    "PlayerList": obj({"players": array(ref("Player"))}, required=["players"]),
    "PlayerUpdate": obj(PLAYER_FIELDS),
    "PlayerCreate": obj(PLAYER_FIELDS, anyOf=[{"required": ["firstName", "surname"]}, {"required": ["name"]}]),
    "Team": obj({"id": {"type": "string"}, "name": {"type": "string"}, "createdAt": DATE_TIME, "players": array(ref("Player")),
                 "hasPhoto": {"type": "boolean"}, "photoURL": {"type": "string"},
                 "sessionCount": {"type": "integer", "minimum": 0, "description": "Saved sessions (FitLabTeam F4)"},
                 "unreviewedCount": {"type": "integer", "minimum": 0,
                                     "description": "Saved sessions not marked reviewed (FitLabTeam's \"pending\"); at most sessionCount"}},
                required=["id", "name", "createdAt", "players", "hasPhoto", "sessionCount", "unreviewedCount"]),
    "TeamList": obj({"teams": array(ref("Team"))}, required=["teams"]),
    "TeamName": obj({"name": {"type": "string", "minLength": 1, "maxLength": 80}}, required=["name"]),
    "TeamSession": obj({
        "id": {"type": "string"}, "teamID": {"type": "string"}, "state": {"type": "string", "enum": ["recording", "stopped", "saved"]},
        "recording": {"type": "boolean", "description": "Recording now (false while counting down to startsAt, and once stopped)"},
        "startsAt": DATE_TIME, "plannedEndAt": DATE_TIME, "endedAt": DATE_TIME, "reviewed": {"type": "boolean"}, "exported": {"type": "boolean"},
        "createdAt": DATE_TIME,
        "players": array(obj({"playerID": {"type": "string"}, "sensorID": {"type": "string"}, "name": {"type": "string"}, "number": {"type": "string"}},
                             required=["playerID", "sensorID", "name"])),
        "context": ref("TeamSessionContext"),
        "correction": {"type": "string", "enum": ["kubios", "fitlab"], "description": "The RR artifact correction its HRV uses"},
    }, required=["id", "teamID", "state", "recording", "startsAt", "reviewed", "exported", "createdAt", "players", "context", "correction"]),
    "TeamSessionContext": obj({name: {"type": "string", "enum": values} for name, values in CONTEXT_VALUES.items()},
                              description="FitLabTeam's session settings (the seed's labels); an unset one is left out"),
    "TeamSessionContextChange": obj({name: {"type": ["string", "null"], "enum": values + [None]} for name, values in CONTEXT_VALUES.items()},
                                    description="A member sets its setting, null clears it, an absent one keeps it"),
    "TeamSessionList": obj({"sessions": array(ref("TeamSession"))}, required=["sessions"]),
    "TeamSessionStart": obj({
        "countdownSeconds": {"type": "integer", "minimum": 0, "maximum": 600},
        "durationSeconds": {"type": "integer", "minimum": 60, "maximum": 43200, "description": "Stops by itself after this long; left out: 12 hours at most"},
        "players": array(obj({"player": {"type": "string"}, "sensor": {"type": "string", "description": "This session only; the player's own sensor otherwise"}},
                             required=["player"]), minItems=1),
        "context": ref("TeamSessionContextChange"),
        "correction": {"type": "string", "enum": ["kubios", "fitlab"], "description": "kubios when left out"},
    }),
    "TeamSessionFlags": obj({"reviewed": {"type": "boolean"}, "exported": {"type": "boolean"}, "context": ref("TeamSessionContextChange"),
                             "correction": {"type": "string", "enum": ["kubios", "fitlab"]}}),
    "TeamSessionReview": obj({
        "session": ref("TeamSession"), "team": {"type": "string"}, "analysedUntil": DATE_TIME,
        "players": array(obj({
            "playerID": {"type": "string"}, "name": {"type": "string"}, "number": {"type": "string"}, "sensorID": {"type": "string"},
            "readingCount": {"type": "integer"}, "coveredSeconds": {"type": "number"}, "averageHeartRate": {"type": "number"},
            "minimumHeartRate": {"type": "integer"}, "maximumHeartRate": {"type": "integer"}, "restingHeartRateUsed": {"type": "number"},
            "maximumHeartRateUsed": {"type": "number"}, "zoneThresholds": array({"type": "number"}),
            "secondsInZones": obj({name: {"type": "number"} for name in ["none", "low", "moderate", "high", "redLine"]},
                                  required=["none", "low", "moderate", "high", "redLine"]),
            "trimp": {"type": "number"}, "kilocalories": {"type": "number"},
            "hrv": obj({name: {"type": "number"} for name in ["durationSeconds", "correctedPercent", "meanNN", "sdnn", "rmssd", "sdsd", "pnn50", "meanHR", "lfHfRatio"]}
                       | {"beats": {"type": "integer"}, "correction": {"type": "string"}, "reliable": {"type": "boolean"},
                          "seedConventions": obj({"sdnn": {"type": "number"}, "rmssd": {"type": "number"}, "sdsd": {"type": "number"},
                                                  "pnn50Fraction": {"type": "number", "minimum": 0, "maximum": 1}},
                                                 required=["sdnn", "rmssd", "sdsd", "pnn50Fraction"],
                                                 description="FitLabTeam's own conventions: SDNN and SDSD over N, pNN50 as a fraction of N")},
                       required=["beats", "durationSeconds", "correction", "correctedPercent", "reliable"]),
            "hrvWindows": array(obj({"startSeconds": {"type": "number"}, "beats": {"type": "integer"}, "rmssd": {"type": "number"},
                                     "sdnn": {"type": "number"}, "pnn50": {"type": "number"}, "meanHR": {"type": "number"}}, required=["startSeconds", "beats"])),
            "heartRate": array({"type": ["integer", "null"]}), "rrIntervals": array({"type": "number"}), "notes": array({"type": "string"}),
        }, required=["playerID", "name", "sensorID", "readingCount", "coveredSeconds", "hrvWindows", "heartRate", "notes"])),
    }, required=["session", "team", "analysedUntil", "players"]),
    "TeamBoard": obj({
        "team": obj({"id": {"type": "string"}, "name": {"type": "string"}}, required=["id", "name"]),
        "serverTime": DATE_TIME, "staleAfterSeconds": {"type": "number"}, "session": ref("TeamSession"),
        "tiles": array(obj({
            "playerID": {"type": "string"}, "name": {"type": "string"}, "number": {"type": "string"}, "photoURL": {"type": "string"},
            "sensorID": {"type": "string"}, "sensorName": {"type": "string"}, "restingHeartRate": {"type": "number"}, "maximumHeartRate": {"type": "number"},
            "zoneThresholds": array({"type": "number"}), "trimpK": {"type": "number"}, "trimpB": {"type": "number"}, "trimp": {"type": "number"},
            "lastBpm": {"type": "integer"}, "contact": {"type": "string"}, "battery": {"type": "integer"}, "lastSeenAt": DATE_TIME,
        }, required=["playerID", "name", "sensorID"])),
        "playersWithoutSensor": array(obj({"id": {"type": "string"}, "name": {"type": "string"}}, required=["id", "name"])),
    }, required=["team", "serverTime", "staleAfterSeconds", "tiles", "playersWithoutSensor"]),
    "SensorList": obj({"sensors": array(ref("Sensor")), "next": {"type": "string", "description": "The next page's path, when there is one"}},
                      required=["sensors"]),
    "SensorName": obj({"name": {"type": "string", "maxLength": 60}}, required=["name"]),
    "SensorHeartRate": obj({
        "sensor": {"type": "string"}, "from": DATE_TIME, "to": DATE_TIME,
        "heartRate": array({"type": ["integer", "null"]}), "rrIntervals": array({"type": "number"}), "readingCount": {"type": "integer"},
    }, required=["sensor", "from", "to", "heartRate", "rrIntervals", "readingCount"]),
    "Measurement": obj({
        "id": {"type": "string"}, "measuredAt": DATE_TIME, "value": {"type": "number"},
        "source": {"type": "string", "description": 'Where an imported value came from ("Apple Health: iPhone"); absent for a value you entered, '
                                                    "which wins over an imported one of the same day"},
    }, required=["id", "measuredAt", "value"]),
    "MeasurementList": obj({
        "kind": {"type": "string", "enum": list(MEASUREMENT_KINDS)}, "unit": {"type": "string"}, "entries": array(ref("Measurement")),
    }, required=["kind", "unit", "entries"]),
    "MeasurementEntry": obj({"value": {"type": "number"}, "measuredAt": DATE_TIME}, required=["value"]),
    "WeightEntry": obj({"kilograms": {"type": "number", "minimum": 20, "maximum": 350}, "pounds": {"type": "number"}, "measuredAt": DATE_TIME}),
    "RestingHeartRateEntry": obj({"bpm": {"type": "number", "minimum": 25, "maximum": 150}, "measuredAt": DATE_TIME}, required=["bpm"]),
    "UserSearch": obj({
        "users": array(obj({
            "user": obj({"id": {"type": "string"}, "username": {"type": "string"}, "fullName": {"type": "string"}},
                        required=["id", "username", "fullName"]),
            "relation": {"type": "string", "enum": ["friend", "requested", "requested-you", "none"]},
        }, required=["user", "relation"])),
        "limit": {"type": "integer"}, "offset": {"type": "integer"},
    }, required=["users", "limit", "offset"]),
    "FriendList": obj({"friends": array(ref("PublicProfile"))}, required=["friends"]),
    "FriendRequestCreate": obj({"userID": {"type": "string"}}, required=["userID"]),
    "FriendRequest": obj({
        "id": {"type": "string"}, "from": ref("PublicProfile"), "to": ref("PublicProfile"),
        "status": {"type": "string", "enum": ["pending", "accepted", "denied"]}, "createdAt": DATE_TIME,
    }, required=["id", "from", "to", "status", "createdAt"]),
    "FriendRequestList": obj({"requests": array(ref("FriendRequest"))}, required=["requests"]),
    "FriendProfile": obj({"profile": ref("PublicProfile"), "sharedWorkouts": array(ref("WorkoutSummary"))}, required=["profile", "sharedWorkouts"]),
    # An upload keeps what is good and leaves out what is impossible, with a warning (issue 19's
    # cleaning): the ranges below are described, not refused, so the schema does not bound them.
    "TrackPoint": obj({
        "lat": {"type": "number", "description": "−90…90; a point without a place is left out with a warning"},
        "lon": {"type": "number", "description": "−180…180"},
        "ele": nullable("number", description="−500…9000 m; outside, the elevation is left out (the point kept)"),
        "t": {"type": "number", "description": "Seconds from the start; non-decreasing (a point stepping back is left out)"},
    }, required=["lat", "lon", "t"]),
    "WorkoutUpload": obj({
        "sport": {"type": "string", "enum": ["running", "cycling", "strength", "other"]}, "startTime": DATE_TIME, "indoor": {"type": "boolean"},
        "heartRate": array(nullable("integer"), minItems=1, maxItems=86400,
                           description="One value per second from startTime, 1–250 bpm; null where there was no reading (every second "
                                       "null: a workout without heart rate); a value outside 1–250 is left out with a warning"),
        "rrIntervals": array({"type": "number"}, description="Milliseconds (20–5000), kept exactly as sent; an artifact is left out with a warning"),
        "track": array(ref("TrackPoint")),
        "distanceMeters": {"type": "number", "description": "Used when there is no track; outside 0–1,000,000 m it is left out with a warning"},
        "kilocalories": {"type": "number", "description": "Overrides the Keytel estimate; outside 0–20,000 it is left out with a warning (0: not measured)"},
        "device": {"type": "string", "maxLength": 200, "description": "The recording device; with the start time, what recognises the same activity uploaded twice"},
    }, required=["sport", "startTime", "heartRate"]),
    "WorkoutSummary": obj({
        "id": {"type": "string"}, "ownerID": {"type": "string"}, "sport": {"type": "string"}, "startTime": DATE_TIME,
        "title": {"type": "string", "description": "The workout's own name from its file (a GPX track's name), when it had one"},
        "device": {"type": "string", "description": "The recording device as its file named it, when it did"},
        "indoor": {"type": "boolean"}, "durationSeconds": {"type": "integer"},
        "averageHeartRate": nullable("number"), "minimumHeartRate": nullable("number"), "maximumHeartRate": nullable("number"),
        "kilocalories": nullable("number"), "distanceMeters": nullable("number"),
        "secondsInZones": {**obj({name: {"type": "integer"} for name in ["none", "low", "moderate", "high", "redLine"]},
                                 required=["none", "low", "moderate", "high", "redLine"]), "type": ["object", "null"]},
        "profile": obj({
            "ageYears": nullable("integer"), "restingHeartRate": nullable("number"), "maxHeartRate": nullable("number"),
            "maxHeartRateMethod": nullable("string"), "weightKilograms": nullable("number"), "sex": nullable("string"),
            "zoneThresholds": {"type": ["array", "null"], "items": {"type": "number"},
                               "description": "Karvonen thresholds at 60, 70, 80, 90 and 100 % of heart-rate reserve"},
        }),
        "rrIntervalCount": {"type": "integer"}, "trackPointCount": {"type": "integer"}, "shared": {"type": "boolean"},
    }, required=["id", "ownerID", "sport", "startTime", "indoor", "durationSeconds", "profile", "rrIntervalCount", "trackPointCount", "shared"]),
    "WorkoutList": obj({"workouts": array(ref("WorkoutSummary")), "limit": {"type": "integer"}, "offset": {"type": "integer"}},
                       required=["workouts", "limit", "offset"]),
    "WorkoutDetail": obj({
        "summary": ref("WorkoutSummary"), "heartRate": array(nullable("integer")), "rrIntervals": array({"type": "number"}),
        "track": array(ref("TrackPoint")),
    }, required=["summary", "heartRate", "rrIntervals", "track"]),
    "WorkoutCreated": obj({"summary": ref("WorkoutSummary"), "warnings": array(obj({
        "message": {"type": "string", "description": "What was left out or cut, in words a person reads"},
        "field": {"type": "string", "description": "The first value concerned, as a path in the workout's JSON (rrIntervals[5123])"},
        "line": {"type": "integer"}, "byte": {"type": "integer", "description": "Where in the file, when the file said"},
        "count": {"type": "integer", "description": "How many values it concerns"},
    }, required=["message", "count"])),
        "replaced": obj({
            "durationSeconds": {"type": "integer", "description": "How long the copy was that this file replaced"},
            "message": {"type": "string", "description": "What happened, in words a person reads"},
        }, required=["durationSeconds", "message"],
            description="Set when the file was a longer copy of an activity stored before (a cut file uploaded first), which it replaced"),
    }, required=["summary", "warnings"]),
}

PERSON = obj({"id": {"type": "string"}, "username": {"type": "string"}, "fullName": {"type": "string"}}, required=["id", "username", "fullName"])
ZONE_SECONDS = obj({zone: {"type": "integer", "minimum": 0} for zone in ["none", "low", "moderate", "high", "red-line"]},
                   required=["none", "low", "moderate", "high", "red-line"])
MATCH_SIDE = obj({
    "score": {"type": "integer", "minimum": 0}, "timeInZoneSeconds": ZONE_SECONDS,
    "heartRate": array({"type": ["integer", "null"]}, description="The side's heart rate second by second as played (null: no reading or lost contact)"),
    "sources": array({"type": "string", "enum": ["strap", "gateway", "practice", "recording"]}, description="Where the side's heart rate came from"),
    "implausibleSeconds": {"type": "integer", "minimum": 0, "description": "Seconds of the side's live heart rate a heart could not make (RR intervals that disagree with the rate, a jump of more than 30 bpm a second, a flat line): counted as lost contact (PROTOCOL.md §10); 0 for practice and ghosts"},
}, required=["score", "timeInZoneSeconds", "heartRate", "sources", "implausibleSeconds"])
schemas.update({
    "MatchCreate": obj({
        "opponent": {"type": "string", "description": "A friend's user id (a live match)"},
        "minutes": {"type": "integer", "minimum": 1, "maximum": 120},
        "ghost": {"type": "string", "description": "A workout id: yours, or one a friend shares with you (a ghost race)"},
        "practice": {"type": "boolean", "description": "A practice match (live only): the slider may play, and the result says practice everywhere. "
                                                      "Without it, each side's heart rate must come from a strap (docs/PROTOCOL.md §10)."},
    }),
    "Match": obj({
        "id": {"type": "string"}, "kind": {"type": "string", "enum": ["live", "ghost"]},
        "state": {"type": "string", "enum": ["invited", "accepted", "declined", "expired", "running", "finished"]},
        "you": {"type": "string", "enum": ["a", "b"], "description": "Your side; absent for the owner of a workout raced as a ghost"},
        "durationSeconds": {"type": "integer"}, "challenger": PERSON, "opponent": PERSON,
        "ghost": obj({"workoutID": {"type": "string"}, "owner": PERSON}),
        "createdAt": DATE_TIME, "expiresAt": DATE_TIME, "startedAt": DATE_TIME, "endedAt": DATE_TIME,
        "room": {"type": "string", "description": "The WebSocket of the match room"},
        "workoutID": {"type": "string", "description": "The workout you saved from this match"},
        "result": obj({
            "winner": {"type": "string", "enum": ["a", "b"]}, "outcome": {"type": "string", "enum": ["won", "lost", "draw"]},
            "marginSeconds": {"type": "integer"}, "reason": {"type": "string", "enum": ["time", "left", "silence", "interrupted"]},
            "forfeitedBy": {"type": "string", "enum": ["a", "b", "both"]}, "secondsPlayed": {"type": "integer"},
            "a": MATCH_SIDE, "b": MATCH_SIDE,
        }, required=["marginSeconds", "reason", "secondsPlayed", "a", "b"]),
        "practice": {"type": "boolean", "description": "Practice (every ghost race, and live matches created with practice true)"},
    }, required=["id", "kind", "state", "durationSeconds", "createdAt", "expiresAt", "room", "practice"]),
    "MatchList": obj({"matches": array(ref("Match"))}, required=["matches"]),
    "Notification": obj({
        "id": {"type": "string"}, "kind": {"type": "string", "enum": [
            "friend-request", "friend-accepted", "match-invitation", "match-accepted", "match-declined", "match-result", "ghost-raced", "health-inactivity", "health-anomaly", "account-deleted"]},
        "text": {"type": "string"}, "link": {"type": "string"}, "createdAt": DATE_TIME, "read": {"type": "boolean"},
    }, required=["id", "kind", "text", "createdAt", "read"]),
    "NotificationList": obj({"notifications": array(ref("Notification")), "unread": {"type": "integer"}}, required=["notifications", "unread"]),
    "Unread": obj({"unread": {"type": "integer"}}, required=["unread"]),
})

WEIGHT_UNIT = {"type": "string", "enum": ["kg", "lb"]}
MEASURE = {"type": "string", "enum": ["reps", "seconds"], "description": "What a set counts: reps, or seconds held (the set's reps are seconds)"}
EXERCISE = obj({
    "id": {"type": "string"}, "name": {"type": "string"}, "group": {"type": "string", "enum": ["Chest", "Shoulders", "Arms", "Back", "Legs", "Abs"]},
    "primaryMuscle": {"type": "string"}, "secondaryMuscles": array({"type": "string"}), "equipment": {"type": "string"},
    "bodyweight": {"type": "boolean"}, "measure": MEASURE,
    "minimumWeight": {"type": "number", "minimum": 0, "description": "The least load prescribed (the empty bar), in unit; 0 for none"},
    "instructions": {"type": "string"}, "licence": {"type": "string"}, "attribution": {"type": "string"},
    "image": {"type": "string", "description": "Its picture, a line drawing of the movement (CC0-1.0): /static/exercises/NAME.svg, "
              "an SVG in currentColor; absent for your own exercises"},
    "custom": {"type": "boolean", "description": "One of your own exercises (made by you or by an import), not the catalogue's"},
    "unit": WEIGHT_UNIT,
    "stats": obj({"mostReps": {"type": "integer"}, "mostWeight": {"type": "number"}, "oneRepMax": {"type": "number"},
                  "coldStart": {"type": "boolean", "description": "Never done, or not since its reset: nothing counted yet"},
                  "needsBaseline": {"type": "boolean", "description":
                                    "The next session starts it with a baseline set (Maximum reps): in the cold start, or a loaded exercise "
                                    "still without a 1RM (every counted set had 37 reps or more, or no weight) — the generator's rule"},
                  "resetAt": DATE_TIME}, required=["mostReps", "mostWeight", "oneRepMax", "coldStart", "needsBaseline"]),
}, required=["id", "name", "group", "primaryMuscle", "secondaryMuscles", "equipment", "bodyweight", "measure", "minimumWeight", "instructions",
             "licence", "attribution", "custom", "unit", "stats"])
ROUTINE = obj({
    "id": {"type": "string"}, "name": {"type": "string"}, "goal": GOAL, "description": {"type": "string"}, "builtIn": {"type": "boolean"},
    "bodyweight": {"type": "boolean"}, "groups": array({"type": "string"}),
    "exercises": array(obj({"id": {"type": "string"}, "name": {"type": "string"}, "group": {"type": "string"}, "bodyweight": {"type": "boolean"},
                            "custom": {"type": "boolean", "description": "One of your own exercises, not the catalogue's"},
                            "missing": {"type": "boolean", "enum": [True], "description":
                                        "Only when an exercise the routine names is gone (one of your own, or one a later catalogue dropped): name is then its id; sessions leave it out"}},
                           required=["id", "name", "group", "bodyweight", "custom"])),
}, required=["id", "name", "goal", "description", "builtIn", "bodyweight", "groups", "exercises"])
SET_ENTRY = obj({
    "n": {"type": "integer", "minimum": 1}, "exerciseID": {"type": "string"}, "exerciseName": {"type": "string"}, "exerciseIndex": {"type": "integer"},
    "kind": {"type": "string"}, "measure": MEASURE,
    "target": obj({"reps": nullable("integer"), "maximum": {"type": "boolean"}, "weight": {"type": "number"}}, required=["maximum", "weight"]),
    "reps": {"type": "integer"}, "weight": {"type": "number"}, "done": {"type": "boolean"}, "doneAt": DATE_TIME,
    "heartRate": obj({"peak": {"type": "integer"}, "recovery": {"type": "integer"}}),
}, required=["n", "exerciseID", "exerciseName", "exerciseIndex", "kind", "measure", "target", "weight", "done"])
schemas.update({
    "Exercise": EXERCISE,
    "ExerciseList": obj({"exercises": array(ref("Exercise")), "groups": array({"type": "string"})}, required=["exercises", "groups"]),
    "ExerciseDetail": obj({"exercise": ref("Exercise"), "progress": array(obj({
        "sessionID": {"type": "string"}, "date": DATE_TIME, "estimatedOneRepMax": {"type": "number"}}, required=["sessionID", "date"]))},
        required=["exercise", "progress"]),
    "Routine": ROUTINE,
    "RoutineList": obj({"routines": array(ref("Routine"))}, required=["routines"]),
    "RoutineInput": obj({"name": {"type": "string", "maxLength": 80}, "goal": GOAL, "description": {"type": "string", "maxLength": 500},
                         "exercises": array({"type": "string", "description": "A catalogue exercise's id or one of your own (custom-…)"},
                                            minItems=1, maxItems=30)}, required=["name", "goal", "exercises"]),
    "StrengthSuggestion": obj({"routine": {**ROUTINE, "type": ["object", "null"]}, "reason": nullable("string"), "overlapping": array({"type": "string"})},
                              required=["overlapping"]),
    "StrengthSettings": obj({
        "goal": GOAL, "lifestyle": LIFESTYLE, "plateStepKg": {"type": "number"}, "barKg": {"type": "number", "minimum": 5, "maximum": 30},
        "unit": WEIGHT_UNIT, "disclaimer": {"type": "string"},
        "disclaimerAcceptedAt": DATE_TIME, "webhookUrl": {"type": "string"}, "webhookSecret": {"type": "string"},
        "webhookDeliveries": array(obj({"id": {"type": "string"}, "createdAt": DATE_TIME, "attempts": {"type": "integer"},
                                        "state": {"type": "string", "enum": ["pending", "delivered", "given-up"]}, "lastError": {"type": "string"}},
                                       required=["id", "createdAt", "attempts", "state"])),
    }, required=["goal", "lifestyle", "barKg", "unit", "disclaimer", "webhookSecret", "webhookDeliveries"]),
    "StrengthSettingsUpdate": obj({
        "goal": GOAL, "lifestyle": LIFESTYLE, "plateStepKg": {"type": ["number", "null"], "minimum": 0.25, "maximum": 25},
        "barKg": {"type": ["number", "null"], "minimum": 5, "maximum": 30, "description": "The empty bar in kg (null: 20, an Olympic bar)"},
        "webhookUrl": {"type": ["string", "null"], "maxLength": 2048}, "acceptDisclaimer": {"type": "boolean", "enum": [True]},
        "newWebhookSecret": {"type": "boolean"}}),
    "StrengthSession": obj({
        "id": {"type": "string"}, "routineID": {"type": "string"}, "name": {"type": "string"}, "goal": GOAL,
        "source": {"type": "string", "enum": ["heartwork", "strong", "hevy"]}, "unit": WEIGHT_UNIT, "sensorID": {"type": "string"},
        "startedAt": DATE_TIME, "finishedAt": DATE_TIME, "editableUntil": DATE_TIME, "review": {"type": "string"},
        "enjoyment": {"type": "integer"}, "difficulty": {"type": "integer"}, "sentiment": {"type": "integer", "minimum": -5, "maximum": 5},
        "message": {"type": "string"},
        "totals": obj({"volume": {"type": "number"}, "reps": {"type": "integer"}, "sets": {"type": "integer"}, "durationSeconds": {"type": "integer"}},
                      required=["volume", "reps", "sets"]),
        "heartRateSource": {"type": "string"}, "sets": array(SET_ENTRY),
    }, required=["id", "name", "goal", "source", "unit", "startedAt", "sets"]),
    "StrengthSessionList": obj({"sessions": array(obj({
        "id": {"type": "string"}, "name": {"type": "string"}, "goal": GOAL, "source": {"type": "string"}, "startedAt": DATE_TIME,
        "finishedAt": DATE_TIME, "enjoyment": {"type": "integer"}, "volume": {"type": "number"}, "sets": {"type": "integer"}, "unit": WEIGHT_UNIT},
        required=["id", "name", "goal", "source", "startedAt", "unit"]))}, required=["sessions"]),
    "StrengthSetUpdate": obj({"reps": {"type": ["integer", "null"], "minimum": 0, "maximum": 1000}, "weight": {"type": "number", "minimum": 0},
                              "weightKg": {"type": "number", "minimum": 0, "maximum": 1000}, "done": {"type": "boolean"}}),
    "StrengthFinish": obj({
        "session": ref("StrengthSession"),
        "oneRepMaxes": array(obj({"exerciseID": {"type": "string"}, "exerciseName": {"type": "string"}, "before": {"type": "number"},
                                  "after": {"type": "number"}}, required=["exerciseID", "exerciseName", "before", "after"])),
        "motivation": obj({"score": {"type": "integer", "minimum": -5, "maximum": 5}, "positive": {"type": "boolean"}, "message": {"type": "string"},
                           "words": array(obj({"word": {"type": "string"}, "value": {"type": "integer"}}, required=["word", "value"]))},
                          required=["score", "positive", "message", "words"]),
        "webhookQueued": {"type": "boolean"},
    }, required=["session", "oneRepMaxes", "motivation", "webhookQueued"]),
    "StrengthImport": obj({
        "source": {"type": "string", "enum": ["strong", "hevy"]}, "imported": {"type": "integer"}, "duplicates": {"type": "integer"},
        "mapped": {"type": "object", "additionalProperties": {"type": "string"}},
        "unmapped": {"type": "object", "additionalProperties": {"type": "integer"}},
        "customExercises": {"type": "object", "additionalProperties": {"type": "string"},
                            "description": "Names the catalogue lacks → your own exercise that now holds their sets"},
        "skippedRows": array({"type": "string"}), "seededOneRepMaxes": {"type": "object", "additionalProperties": {"type": "number"}}, "unit": WEIGHT_UNIT,
        "importID": {"type": "string", "description": "The import (GET /api/strength/imports/{importID})"},
    }, required=["source", "imported", "duplicates", "mapped", "unmapped", "customExercises", "skippedRows", "seededOneRepMaxes", "unit"]),
    "StrengthImportStatus": obj({
        "id": {"type": "string"}, "state": {"type": "string", "enum": ["receiving", "queued", "running", "done", "failed"]},
        "bytesTotal": {"type": "integer"}, "bytesDone": {"type": "integer"}, "progress": {"type": "number", "minimum": 0, "maximum": 1},
        "workoutsImported": {"type": "integer"}, "workoutsDuplicate": {"type": "integer"},
        "error": {"type": "string", "description": "Why a failed import stopped"},
        "result": {**ref("StrengthImport"), "description": "The summary, once done"},
        "createdAt": {"type": "string", "format": "date-time"}, "finishedAt": {"type": "string", "format": "date-time"},
    }, required=["id", "state", "bytesTotal", "bytesDone", "progress", "workoutsImported", "workoutsDuplicate", "createdAt"]),
    "Nutrition": obj({
        "goal": GOAL, "lifestyle": LIFESTYLE,
        "lifestyleAssumed": {"type": "boolean", "description": "True while you have not picked a lifestyle: lifestyle is then the default, low-active, assumed"},
        "inputs": obj({"sex": {"type": "string"}, "ageYears": {"type": "integer"}, "heightMeters": {"type": "number"}, "weightKg": {"type": "number"}}),
        "missing": array({"type": "string", "enum": ["sex", "dateOfBirth", "height", "weight"]}),
        "totalEnergyExpenditure": {"type": "number"}, "calories": {"type": "number"}, "proteinGrams": {"type": "integer"},
        "fatGrams": {"type": "integer"}, "carbohydrateGrams": {"type": "integer", "minimum": 0},
        "warnings": array({"type": "string"}),
    }, required=["goal", "lifestyle", "lifestyleAssumed", "inputs", "missing", "warnings"]),
})

# Daily health (issue 11; docs/DAILY-HEALTH.md).
TAG = "daily"
DAY_PARAM = [{"name": "date", "in": "path", "required": True, "description": "A local date, yyyy-mm-dd",
              "schema": {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}}]
api("/api/imports/apple-health", "post", "importAppleHealth",
    "Import an Apple Health export: the Health app's export.zip (application/zip) or its export.xml (application/xml) as the raw "
    "body. Answers at once with the import; it runs in the background (progress at GET /api/imports/{importID})",
    {202: ("Accepted: the import is queued", ref("HealthImport"), "Location")}, errors=(401, 413, 415, 422, 429, 503),
    body={"application/zip": {"schema": {"type": "string", "format": "binary"}},
          "application/xml": {"schema": {"type": "string"}}})
api("/api/imports/gadgetbridge", "post", "importGadgetbridge",
    "Import Gadgetbridge's database: the SQLite file Gadgetbridge exports (Settings → Database management → Export DB, or its auto-export) as "
    "the raw body, any media type (known by its first bytes). Heart rate, steps, sleep and the devices are read from the sample tables of the "
    "common device families; tables, devices and values not understood are named in the import's notUnderstood. Answers at once with the "
    "import; it runs in the background (progress at GET /api/imports/{importID})",
    {202: ("Accepted: the import is queued", ref("HealthImport"), "Location")}, errors=(400, 401, 413, 422, 429, 503),
    error_descriptions={400: "Not an SQLite database, or not Gadgetbridge's (the detail says why)"}, any_media_type=True,
    body={media_type: {"schema": {"type": "string", "format": "binary"}}
          for media_type in ["application/octet-stream", "application/vnd.sqlite3", "application/x-sqlite3"]})
api("/api/imports", "get", "listImports", "Your last 20 imports, newest first", {200: ("OK", obj({"imports": array(ref("HealthImport"))}, ["imports"]))})
api("/api/imports/{importID}", "get", "getImport", "An import's progress and outcome", {200: ("OK", ref("HealthImport"))}, errors=(401, 404),
    params=[path_param("importID")])
api("/api/days", "get", "listDays", "Your days from one date to another (both included, at most 366), each as GET /api/days/{date} answers",
    {200: ("OK", obj({"days": array(ref("Day"))}, ["days"]))}, errors=(400, 401, 422),
    params=[{**query_param("from", "First day, yyyy-mm-dd", {"type": "string"}), "required": True},
            {**query_param("to", "Last day, yyyy-mm-dd", {"type": "string"}), "required": True}])
api("/api/days/{date}", "get", "getDay", "A day's metrics as stored (recovery, strain, readiness, load, heart rate, steps); hasData false when nothing was recorded",
    {200: ("OK", ref("Day"))}, errors=(400, 401), params=DAY_PARAM)
api("/api/days/{date}/sleep-quality", "put", "rateSleep", "Rate the night before the day 1–10 (until the day is over); the day is worked out again",
    {200: ("OK", ref("Day"))}, errors=(400, 401, 409, 422), body=obj({"quality": {"type": "integer", "minimum": 1, "maximum": 10}}, ["quality"]),
    params=DAY_PARAM)
CLOCK_TIME = {"type": "string", "pattern": "^[0-9]{1,2}:[0-9]{2}$"}
api("/api/days/{date}/sleep-time", "put", "setSleepTime",
    "Set the bed and wake time of the night before the day (seed 004's \"Time Slept\", until the day is over), local clock times: the wake "
    "time is on the day, before 18:00; the bed time the last time at its clock before it (23:10 is the evening before a 07:05 wake time). "
    "They stand for the recorded time in bed (sleep.timeSource \"entered\") until cleared; the day is worked out again",
    {200: ("OK", ref("Day"))}, errors=(400, 401, 409, 422),
    body=obj({"bedTime": {**CLOCK_TIME, "description": "HH:MM"}, "wakeTime": {**CLOCK_TIME, "description": "HH:MM"}}, ["bedTime", "wakeTime"]),
    params=DAY_PARAM)
api("/api/days/{date}/sleep-time", "delete", "clearSleepTime",
    "Clear the bed and wake time you set for the night before the day: the recorded night counts again (404 when none was set)",
    {200: ("OK", ref("Day"))}, errors=(400, 401, 404, 409, 422), params=DAY_PARAM)
api("/api/days/{date}/mark", "put", "markDay", "Mark a day sick or traveling (null: a normal day again); marked days stay out of your baselines",
    {200: ("OK", ref("Day"))}, errors=(400, 401, 422), body=obj({"mark": {"type": ["string", "null"], "enum": ["sick", "traveling", None]}}, ["mark"]),
    params=DAY_PARAM)
api("/api/heart-rate", "get", "getHeartRate",
    "Your heart rate from one instant to another (seed 003's windows: the last 24 h is from=now-24h): the minimum, maximum and time-weighted "
    "average (each sample counts until the next, at most 10 minutes) and the series per second, minute or hour. At most 100,000 buckets "
    "and 366 days: a longer range is refused (400) naming the resolution that fits",
    {200: ("OK", ref("HeartRateRange"))}, errors=(400, 401),
    params=[{**query_param("from", "The range's start (a sample belongs to the range it starts in), RFC 3339", DATE_TIME), "required": True},
            query_param("to", "The range's end, RFC 3339 (default: now)", DATE_TIME),
            query_param("resolution", "The series' buckets (default: minute up to 7 days, else hour)", {"type": "string", "enum": ["second", "minute", "hour"]})])
HEART_RATE_NUMBER = {"type": "number", "minimum": 0}
schemas["HeartRateRange"] = obj({
    "from": DATE_TIME, "to": DATE_TIME, "resolution": {"type": "string", "enum": ["second", "minute", "hour"]},
    "bucketSeconds": {"type": "integer", "enum": [1, 60, 3600]},
    "minimum": HEART_RATE_NUMBER, "maximum": HEART_RATE_NUMBER,
    "average": {**HEART_RATE_NUMBER, "description": "Over time: each sample stands for the time until the next one, at most 10 minutes"},
    "samples": {"type": "integer", "minimum": 0, "description": "Samples that start in the range"},
    "coveredSeconds": {"type": "number", "minimum": 0, "description": "The time the samples stand for"},
    "series": array(obj({"start": DATE_TIME, "minimum": HEART_RATE_NUMBER, "average": HEART_RATE_NUMBER, "maximum": HEART_RATE_NUMBER,
                         "seconds": {"type": "number", "minimum": 0, "description": "The part of the bucket some sample covers"}},
                        ["start", "minimum", "average", "maximum", "seconds"]),
                    description="Buckets aligned on UTC's clock; only those some sample covers"),
}, ["from", "to", "resolution", "bucketSeconds", "samples", "coveredSeconds", "series"],
    description="minimum, maximum and average are left out when no sample starts in the range")

TAG = "web"
page("/today", "get", "todayPage", "Today (or ?date=): recovery, strain so far, readiness with its reasons, the night's rating, marks", [200, 401, 422],
     params=[query_param("date", "A day, yyyy-mm-dd (default: today)")])
page("/today/sleep-quality", "post", "rateSleepForm", "Rate the night before a day 1–10", [303, 400, 401, 403, 409, 422],
     form={**CSRF, "quality": {"type": "string"}, "date": {"type": "string"}})
page("/today/sleep-time", "post", "setSleepTimeForm", "Set the bed and wake time of the night before a day (HH:MM each)", [303, 400, 401, 403, 409, 422],
     form={**CSRF, "bedTime": {"type": "string"}, "wakeTime": {"type": "string"}, "date": {"type": "string"}})
page("/today/sleep-time/clear", "post", "clearSleepTimeForm", "Clear the bed and wake time set for the night before a day", [303, 400, 401, 403, 404, 409, 422],
     form={**CSRF, "date": {"type": "string"}})
page("/today/mark", "post", "markDayForm", "Mark a day sick, traveling or normal", [303, 400, 401, 403, 422],
     form={**CSRF, "mark": {"type": "string"}, "date": {"type": "string"}})
page("/health/week", "get", "healthWeekPage", "The week's recovery and strain (bars, weekly averages), workout intensity (a line), and training load", [200, 401, 422],
     params=[query_param("end", "The week's last day, yyyy-mm-dd (default: today)")])
page("/health/history", "get", "heartRateHistoryPage", "Heart rate over the last 24 hours, 7 days or 30 days up to now, and steps a day", [200, 401],
     params=[query_param("range", "day (the last 24 hours), week (7 × 24 h) or month (30 × 24 h)")])
page("/health/import", "get", "healthImportPage", "Import an Apple Health export (upload with progress) and the past imports", [200, 401])

TAG = "daily"
SETTINGS_FIELDS = {
    "stepThreshold": {"type": "integer", "minimum": 0, "maximum": 100000, "description": "Fewer steps than this by inactivityTime is an inactivity alert"},
    "inactivityTime": {"type": "string", "pattern": "^[0-9]{1,2}:[0-9]{2}$", "description": "Local time of day, HH:MM"},
    "inactivityAlerts": {"type": "boolean"}, "anomalyAlerts": {"type": "boolean"},
    "order": {"type": "integer", "minimum": 1, "maximum": 12, "description": "The anomaly detector's p (AR order)"},
    "bandSD": {"type": "number", "minimum": 1, "maximum": 6, "description": "The forecast band, in residual standard deviations (k)"},
    "consecutive": {"type": "integer", "minimum": 1, "maximum": 24, "description": "Readings in a row outside the band"},
    "intervalMinutes": {"type": "integer", "minimum": 1, "maximum": 60, "description": "The resampling grid"},
    "sourceOrder": {"type": "array", "maxItems": 20, "items": {"type": "string", "minLength": 1, "maxLength": 100},
                    "description": "Sources first in this order where two overlap (then watches, other devices, phones)"},
}
api("/api/health/settings", "get", "getHealthSettings", "Your daily-health settings: the inactivity alert, the anomaly detector, the source order",
    {200: ("OK", ref("HealthSettings"))})
api("/api/health/settings", "put", "updateHealthSettings", "Change any of your daily-health settings (a new source order works out every day again)",
    {200: ("OK", ref("HealthSettings"))}, errors=(400, 401, 422), body=obj(SETTINGS_FIELDS))
schemas["HealthSettings"] = obj(SETTINGS_FIELDS, list(SETTINGS_FIELDS.keys()))
TAG = "web"
page("/today/settings", "post", "healthSettingsForm", "Save the alerts' settings", [303, 400, 401, 403, 422],
     form={**CSRF, "stepThreshold": {"type": "string"}, "inactivityTime": {"type": "string"}, "inactivityAlerts": {"type": "string"},
           "anomalyAlerts": {"type": "string"}})

NUMBER_ = {"type": "number"}
TAG = "daily"
api("/api/food-label", "post", "readFoodLabel",
    "Read a nutrition label: its text (text/plain, typed or pasted) or a photo (image/png, image/jpeg …; read by Tesseract OCR when the "
    "server has it, else 503). Calories, fats, sodium, sugars, protein per serving and whether it is unhealthy, with the reasons",
    {200: ("OK", ref("NutritionLabel"))}, errors=(401, 413, 415, 422, 503),
    body={"text/plain": {"schema": {"type": "string"}}, "image/png": {"schema": {"type": "string", "format": "binary"}},
          "image/jpeg": {"schema": {"type": "string", "format": "binary"}}})
schemas["NutritionLabel"] = obj({
    "servingSize": {"type": "string"}, "calories": NUMBER_, "totalFatGrams": NUMBER_, "saturatedFatGrams": NUMBER_, "transFatGrams": NUMBER_,
    "cholesterolMilligrams": NUMBER_, "sodiumMilligrams": NUMBER_, "carbohydrateGrams": NUMBER_, "fiberGrams": NUMBER_, "sugarsGrams": NUMBER_,
    "addedSugarsGrams": NUMBER_, "proteinGrams": NUMBER_, "unhealthy": {"type": "boolean"},
    "basis": {"type": "string", "enum": ["serving", "100 g", "100 ml"],
              "description": "What the values are for; per 100 g or 100 ml the UK's front-of-pack 'high' levels judge them"},
    "reasons": array({"type": "string"}),
}, ["unhealthy", "reasons"], description="Per serving, or per 100 g / 100 ml (basis); members the label does not give are left out")
TAG = "web"
page("/food", "get", "foodPage", "Read a food label: paste its text or choose a photo", [200, 401])
page("/food", "post", "foodLabelForm", "Read a pasted label", [200, 401, 403, 422], form={**CSRF, "label": {"type": "string"}})

NUMBER = {"type": "number"}
REASON_COUNTS = array(obj({"reason": {"type": "string"}, "count": {"type": "integer"}}, required=["reason", "count"]))
COUNTS = {"type": "object", "additionalProperties": {"type": "integer"}}
schemas["HealthImport"] = obj({
    "id": {"type": "string"}, "state": {"type": "string", "enum": ["receiving", "queued", "running", "done", "failed"],
                                       "description": "receiving: the upload is still arriving (it holds one of your two places)"},
    "format": {"type": "string", "enum": ["zip", "xml", "gadgetbridge"]}, "bytesTotal": {"type": "integer"}, "bytesDone": {"type": "integer"},
    "progress": {"type": "number", "minimum": 0, "maximum": 1}, "samplesRead": {"type": "integer"}, "samplesAdded": {"type": "integer"},
    "workoutsAdded": {"type": "integer"}, "workoutsDuplicate": {"type": "integer"},
    "workoutsSkipped": REASON_COUNTS,
    "read": {**COUNTS, "description": 'Gadgetbridge: what was read, by device and kind ("Amazfit Bip: heart rate": 1440); empty for Apple Health'},
    "notUnderstood": {**COUNTS, "description": 'Gadgetbridge: tables, devices and values not understood, with their rows '
                                               '("XIAOMI_SLEEP_STAGE_SAMPLE": 12); empty for Apple Health'},
    # Its description comes before its properties (the document's key order), so not obj(…, description=…).
    "body": {"type": "object",
             "description": "What the export's owner (birth date, sex) and its body-mass and height samples did: the profile fields filled because "
                            "they were empty, weights and heights added to your histories (one a day, the day's last), those already stored, and "
                            "days left out with the reason (a value you entered that day wins)",
             **obj({"profileFilled": array({"type": "string", "enum": ["dateOfBirth", "sex", "heightMeters"]}),
                    "weightsAdded": {"type": "integer"}, "heightsAdded": {"type": "integer"}, "alreadyStored": {"type": "integer"},
                    "leftOut": REASON_COUNTS}, ["profileFilled", "weightsAdded", "heightsAdded", "alreadyStored", "leftOut"])},
    "recordsSkipped": {"type": "object", "description": "Records of types Heartwork does not read, by type (HKQuantityTypeIdentifierBloodGlucose: 12)",
                       "additionalProperties": {"type": "integer"}},
    "firstDay": {"type": "string"}, "lastDay": {"type": "string"},
    "error": {"type": "string", "description": "Why the import stopped (the line or entry); what came before it is kept"},
    "createdAt": DATE_TIME, "finishedAt": DATE_TIME,
}, ["id", "state", "format", "bytesTotal", "bytesDone", "progress", "samplesRead", "samplesAdded", "workoutsAdded", "workoutsDuplicate", "workoutsSkipped",
    "body", "recordsSkipped", "createdAt", "read", "notUnderstood"])
READINESS_STATUS = {"type": "string", "enum": ["ready", "normal", "strained", "unknown", "sick", "traveling"]}
schemas["Day"] = obj({
    "date": {"type": "string"}, "utcOffsetSeconds": {"type": "integer"}, "hasData": {"type": "boolean"},
    "heartRate": obj({"minimum": NUMBER, "maximum": NUMBER, "average": NUMBER, "samples": {"type": "integer"},
                      "latest": {**NUMBER, "description": "The day's last reading (the current heart rate today)"}, "latestAt": DATE_TIME},
                     ["minimum", "maximum", "average", "samples"]),
    "restingHeartRate": NUMBER, "hrvSDNNMilliseconds": NUMBER, "steps": {"type": "integer"},
    "sleep": obj({"inBedHours": NUMBER, "asleepHours": NUMBER, "quality": {"type": "integer", "minimum": 1, "maximum": 10},
                  "qualitySource": {"type": "string", "enum": ["entered", "estimated"]},
                  "recoveryPercent": {**NUMBER, "description": "Hours in bed × quality/10 ÷ 8 × 100, not capped (seed 004)"},
                  "bedTime": DATE_TIME, "wakeTime": DATE_TIME,
                  "timeSource": {"type": "string", "enum": ["recorded", "entered"], "description": "entered: the bed and wake time you set"},
                  "recordedInBedHours": {**NUMBER, "description": "With a time you set: the hours in bed recorded"}},
                 ["inBedHours", "quality", "qualitySource"]),
    "rise": obj({
        "workouts": array(obj({"id": {"type": "string"}, "name": {"type": "string"}, "points": NUMBER, "intensity": NUMBER,
                               "minutesInZones": array(NUMBER)}, ["id", "name", "points", "intensity", "minutesInZones"])),
        "elevatedPoints": NUMBER, "elevatedIntensity": NUMBER, "elevatedHours": NUMBER, "inactiveHours": NUMBER,
        "strain": NUMBER, "maximumStrain": NUMBER, "coveredSeconds": NUMBER,
    }, ["workouts", "elevatedPoints", "elevatedIntensity", "elevatedHours", "inactiveHours", "strain", "maximumStrain", "coveredSeconds"]),
    "maximumHeartRate": NUMBER,
    "readiness": obj({
        "status": READINESS_STATUS,
        "inputs": array(obj({"name": {"type": "string"}, "value": NUMBER, "band": obj({"low": NUMBER, "high": NUMBER}, ["low", "high"]),
                             "status": READINESS_STATUS, "reason": {"type": "string"}}, ["name", "status", "reason"])),
        "reason": {"type": "string"},
    }, ["status", "inputs", "reason"]),
    "load": obj({"trimp": NUMBER, "acute": NUMBER, "chronic": NUMBER, "balance": NUMBER, "ratio": NUMBER,
                 "historyDays": {"type": "integer", "minimum": 0, "description": "Days since the first day with training load (of the 126 looked at); "
                                 "the ratio is judged from 28 on"}}, ["trimp", "acute", "chronic", "balance"]),
    "mark": {"type": "string", "enum": ["sick", "traveling"]},
}, ["date", "utcOffsetSeconds", "hasData", "readiness", "load"],
   description="A local day. Members without a value (no heart rate, no night, no workouts' RISE day …) are left out.")

# MARK: Recordings (issue 23: /record)

TAG = "workouts"
RECORDING_ID = [path_param("recordingID")]
schemas["RecordingStart"] = obj({
    "sport": {"type": "string", "enum": ["running", "cycling", "strength", "other"]},
    "indoor": {"type": "boolean", "description": "Indoors: no track is kept (default false)"},
    "startedAt": {"type": "string", "format": "date-time", "description": "When the first second began (RFC 3339)"},
}, ["sport", "startedAt"])
schemas["Recording"] = obj({
    "id": {"type": "string", "description": "The UUID the client chose"},
    "sport": {"type": "string"},
    "indoor": {"type": "boolean"},
    "startedAt": {"type": "string", "format": "date-time"},
    "updatedAt": {"type": "string", "format": "date-time"},
    "chunks": {"type": "integer", "description": "Chunks stored"},
    "samples": {"type": "integer", "description": "Samples those chunks hold"},
    "workoutID": {"type": "string", "description": "Once finished: the workout it became"},
}, ["id", "sport", "indoor", "startedAt", "updatedAt", "chunks", "samples"])
schemas["RecordingList"] = obj({"recordings": array(ref("Recording"))}, ["recordings"])
schemas["RecordingSample"] = obj({
    "at": {"type": "integer", "description": "Unix milliseconds, from the start to 24 hours after it; one heart-rate value per second from startedAt (the last sample of a second wins)"},
    "bpm": nullable("integer", minimum=1, maximum=250),
    "rr": array({"type": "number", "minimum": 20, "maximum": 5000}, maxItems=16, description="RR intervals heard since the previous sample, ms"),
    "lat": {"type": "number", "minimum": -90, "maximum": 90},
    "lon": {"type": "number", "minimum": -180, "maximum": 180},
    "alt": {"type": "number", "minimum": -500, "maximum": 9000, "description": "Metres; with lat and lon only"},
}, ["at"])
schemas["RecordingChunk"] = obj({"samples": array(ref("RecordingSample"), maxItems=600)}, ["samples"])
schemas["RecordingChunkStored"] = obj({
    "n": {"type": "integer"}, "samples": {"type": "integer"}, "stored": {"type": "boolean", "description": "False when this chunk was stored before"},
}, ["n", "samples", "stored"])
schemas["RecordingFinish"] = obj({
    "endedAt": {"type": "string", "format": "date-time"},
    "pausedSeconds": {"type": "integer", "minimum": 0, "maximum": 86400},
})
api("/api/recordings", "get", "listRecordings", "Your unfinished live recordings, newest first (to resume or discard)", {200: ("OK", ref("RecordingList"))})
api("/api/recordings/{recordingID}", "put", "startRecording",
    "Start a live recording under a UUID the client chose: 201 created, 200 when it is yours already with the same settings (a resend); "
    "at most 20 unfinished recordings",
    {201: ("Created", ref("Recording"), "Location"), 200: ("Already there", ref("Recording"), "Location")},
    errors=(400, 404, 409, 422), body=ref("RecordingStart"), params=RECORDING_ID)
api("/api/recordings/{recordingID}", "get", "getRecording", "One of your recordings", {200: ("OK", ref("Recording"))}, errors=(404,), params=RECORDING_ID)
api("/api/recordings/{recordingID}", "delete", "discardRecording", "Throw a recording away (a finished one's workout stays)",
    {204: ("Deleted", None)}, errors=(404,), params=RECORDING_ID)
api("/api/recordings/{recordingID}/chunks/{n}", "put", "putRecordingChunk",
    "Store chunk n (0–9999) of samples: 201 stored, 200 when the same chunk was stored before, 409 when other samples are stored under n "
    "or the recording is finished or being finished (a chunk sent while its finish runs is refused, never stored and then left out of the workout); "
    "at most 600 samples a chunk and 100,000 a recording, 256 kB a body",
    {201: ("Stored", ref("RecordingChunkStored")), 200: ("Stored before", ref("RecordingChunkStored"))},
    errors=(400, 404, 409, 422), body=ref("RecordingChunk"), params=RECORDING_ID + [path_param("n")])
api("/api/recordings/{recordingID}/finish", "post", "finishRecording",
    "Make the recording a workout, as an upload would (zones, calories, HRV from the RR intervals, the route): 201 with the workout; "
    "every later call answers 200 with the same workout",
    {201: ("Finished; Location names the workout", ref("WorkoutCreated"), "Location"), 200: ("Finished before", ref("WorkoutCreated"), "Location")},
    errors=(400, 404, 409, 422, 503), body=ref("RecordingFinish"), params=RECORDING_ID)
page("/record", "get", "recordPage", "Record a workout live: a Bluetooth or gateway strap, zones, calories, distance, kept through reloads and lost networks",
     [200, 401])

# MARK: Phone sync (issue 24: Health Auto Export)

TAG = "daily"
TOKEN_ID = [path_param("tokenID")]
schemas["SyncToken"] = obj({
    "id": {"type": "string"}, "name": {"type": "string"}, "createdAt": DATE_TIME, "lastUsedAt": DATE_TIME,
    "token": {"type": "string", "description": "Only when the token was just created: keep it, it is not shown again"},
}, ["id", "name", "createdAt"])
schemas["SyncTokenList"] = obj({"tokens": array(ref("SyncToken"))}, ["tokens"])
schemas["SyncTokenName"] = obj({"name": {"type": "string", "minLength": 1, "maxLength": 60}}, ["name"])
schemas["SyncArrival"] = obj({
    "receivedAt": DATE_TIME, "source": {"type": "string"}, "tokenName": {"type": "string"}, "samplesAdded": {"type": "integer"},
    "samplesAlready": {"type": "integer"}, "workoutsAdded": {"type": "integer"}, "leftOut": {"type": "integer"}, "newestSampleAt": DATE_TIME,
}, ["receivedAt", "source", "tokenName", "samplesAdded", "samplesAlready", "workoutsAdded", "leftOut"])
schemas["SyncArrivalList"] = obj({"arrivals": array(ref("SyncArrival"))}, ["arrivals"])
schemas["SyncAnswer"] = obj({
    "added": obj({"samples": {"type": "integer"}, "byMetric": COUNTS, "workouts": {"type": "integer"}, "weights": {"type": "integer"},
                  "heights": {"type": "integer"}}, ["samples", "byMetric", "workouts", "weights", "heights"]),
    "updated": {"type": "integer", "description": "Samples sent before with another value, now replaced"},
    "already": obj({"samples": {"type": "integer"}, "workouts": {"type": "integer"}}, ["samples", "workouts"]),
    "leftOut": array(obj({"why": {"type": "string"}, "count": {"type": "integer"}}, ["why", "count"])),
    "entriesRead": COUNTS, "fieldsNotUsed": COUNTS, "profileFilled": array({"type": "string"}),
    "firstDay": nullable("string"), "lastDay": nullable("string"), "newestSampleAt": DATE_TIME, "recomputing": {"type": "boolean"},
}, ["added", "updated", "already", "leftOut", "entriesRead", "fieldsNotUsed", "profileFilled", "recomputing"])
api("/api/sync-tokens", "post", "createSyncToken",
    "Create a sync token for a phone app (Health Auto Export); the token (hws_…) is in this answer only and is good for the sync routes alone",
    {201: ("Created", ref("SyncToken"), "Location")}, errors=(400, 401, 409, 422), body=ref("SyncTokenName"))
api("/api/sync-tokens", "get", "listSyncTokens", "Your sync tokens, oldest first (never the tokens themselves)", {200: ("OK", ref("SyncTokenList"))})
api("/api/sync-tokens/{tokenID}", "delete", "revokeSyncToken", "Revoke a sync token: it stops working at once; what it synced stays",
    {204: ("Revoked", None)}, errors=(401, 404), params=TOKEN_ID)
api("/api/sync/arrivals", "get", "listSyncArrivals", "The newest syncs that arrived (at most 20), newest first: when, from where, what they added",
    {200: ("OK", ref("SyncArrivalList"))})
api("/api/sync/health-auto-export", "post", "syncHealthAutoExport",
    "Health Auto Export's REST API automation posts here with `Authorization: Bearer hws_…` (a sync token; nothing else is taken). The body "
    "is the app's JSON export format. Samples are stored once per kind, source and instant (a resent window changes nothing; a changed value "
    "replaces the earlier), workouts once by the app's id; the answer says what was added, already there and left out and why, and the "
    "touched days are recomputed in the background. At most 64 MiB.",
    {200: ("What the sync did", ref("SyncAnswer"))}, errors=(400, 401, 413, 415, 422, 429, 503),
    body={"type": "object", "description": 'Health Auto Export\'s JSON: {"data":{"metrics":[…],"workouts":[…]}}'},
    security=[{"syncToken": []}])
page("/settings/sync-tokens", "post", "createSyncTokenForm", "Create a sync token: the settings page shows it once, with the steps for Health Auto Export",
     [201, 401, 403, 409, 422], form={**CSRF, "name": {"type": "string"}})
page("/settings/sync-tokens/{tokenID}/revoke", "post", "revokeSyncTokenForm", "Revoke a sync token", [303, 401, 403, 404],
     form=dict(CSRF), form_required=False, params=TOKEN_ID)

# Web Push (issue 25, HeartMate F35): the VAPID key and the caller's browsers with notifications on.
TAG = "push"
schemas["PushKey"] = obj({"publicKey": {"type": "string", "description": "The VAPID public key (RFC 8292), base64url: the browser's applicationServerKey"}},
                         ["publicKey"])
schemas["PushSubscription"] = obj({
    "id": {"type": "string"},
    "service": {"type": "string", "description": "The push service's origin (scheme://host[:port]); the endpoint itself is not shown"},
    "createdAt": DATE_TIME,
}, ["id", "service", "createdAt"])
schemas["PushSubscriptionList"] = obj({"subscriptions": array(ref("PushSubscription"))}, ["subscriptions"])
schemas["NewPushSubscription"] = obj({
    "endpoint": {"type": "string", "description": "The push service's URL for this browser (https)"},
    "expirationTime": nullable("number"),
    "keys": obj({"p256dh": {"type": "string", "description": "The browser's P-256 public key, 65 bytes uncompressed, base64url"},
                 "auth": {"type": "string", "description": "The browser's 16-byte secret, base64url"}}, ["p256dh", "auth"]),
}, ["endpoint", "keys"], description="The browser's PushSubscription.toJSON()")
schemas["PushEndpoint"] = obj({"endpoint": {"type": "string"}}, ["endpoint"])
api("/api/push/key", "get", "getPushKey", "The server's VAPID public key (made on first start, the same on every instance of one database)",
    {200: ("OK", ref("PushKey"))}, errors=(401, 503))
api("/api/push/subscriptions", "post", "addPushSubscription",
    "Turn notifications on for this browser: friend requests, challenges, their answers and match results are pushed to it "
    "(the same endpoint again renews its keys; at most 10 devices)",
    {201: ("Created", ref("PushSubscription"))}, errors=(400, 401, 409, 422), body=ref("NewPushSubscription"))
api("/api/push/subscriptions", "get", "listPushSubscriptions", "Your browsers with notifications on, oldest first (origin and time only)",
    {200: ("OK", ref("PushSubscriptionList"))})
api("/api/push/subscriptions", "delete", "removePushSubscription", "Turn notifications off for one of your browsers, by its endpoint",
    {204: ("Removed", None)}, errors=(400, 401, 404, 422), body=ref("PushEndpoint"))

document = {
    "openapi": "3.1.0",
    "info": {
        "title": "Heartwork API",
        "version": "0.2.0",
        "description": (
            "Self-hosted heart-rate training: accounts, profiles, friends and workouts. Errors are application/problem+json "
            "(RFC 9457) with a `field` naming what was wrong. Every non-public operation needs a bearer token "
            "(POST /api/auth/login) or the web app's session cookie; cookie-authenticated requests that change something must "
            "send the session's CSRF token in X-CSRF-Token (or the _csrf form field). Another user's resources answer 404. "
            "Request bodies are strict: unknown fields are refused, and null is accepted only where a field may be cleared."
        ),
    },
    "servers": [{"url": "/"}],
    "security": [{"bearerAuth": []}, {"cookieAuth": []}],
    "tags": [{"name": name} for name in ["system", "accounts", "profile", "friends", "workouts", "live", "teams", "matches", "strength", "daily", "push", "web"]],
    "paths": dict(sorted(paths.items())),
    "components": {
        "schemas": schemas,
        "securitySchemes": {
            "bearerAuth": {"type": "http", "scheme": "bearer", "description": "Opaque token from POST /api/auth/login; 30 days; revocable"},
            "cookieAuth": {"type": "apiKey", "in": "cookie", "name": "hw_session", "description": "Web app session (HttpOnly, SameSite=Lax)"},
            "syncToken": {"type": "http", "scheme": "bearer", "description": "A sync token (hws_…) from POST /api/sync-tokens: good for /api/sync/… alone"},
        },
    },
}

if __name__ == "__main__":
    OUT.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {OUT.relative_to(OUT.parents[3])}: {len(paths)} paths, {sum(len(v) for v in paths.values())} operations")
