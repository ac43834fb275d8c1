"""Storage: where the site keeps a game, below the services and selectors.

`sql` holds every hand-written SQL statement of the site (the rest uses the
ORM), `states` the engine states and Turn records and the process caches of
them, `action_log` the hash-chained, append-only log and its readers, and
`render_cache` the Redis cache of rendered boards and review steps."""
