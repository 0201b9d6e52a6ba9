extension Migration {
    /// Webhook deliveries became jobs on the one queue (issue 27): a delivery still pending
    /// when the server is upgraded gets its job, with the attempts it has had, so nothing
    /// queued before is lost. The payload is `WebhookDeliverer.WebhookJob`'s JSON.
    static let webhookJobs = Migration(version: 17, name: "webhook deliveries as jobs") { _ in
        [
            """
            INSERT INTO jobs (id, kind, user_id, payload, state, attempts, max_attempts, run_after, locked_by, locked_until, last_error, created_at, finished_at)
            SELECT 'webhook-' || id, 'webhook', user_id, '{"deliveryID":"' || id || '"}', 'queued', attempts, 8, next_attempt_at, NULL, NULL, last_error,
                created_at, NULL
            FROM webhook_deliveries WHERE delivered_at IS NULL AND given_up_at IS NULL
            """
        ]
    }
}
