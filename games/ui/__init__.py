"""Per-game site packages (board view-models, templates, setup screens, AI entry points)."""
