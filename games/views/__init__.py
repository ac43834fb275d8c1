"""The site's HTTP views, by subject: `games` (the game pages), `club`,
`takeback`, `notifications`, `site` (health check, server error), with
what they share in `common`."""
