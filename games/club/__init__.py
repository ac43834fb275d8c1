"""The club: challenges and their terms, draw offers, chat, ratings,
reminders, and the club's own reads.  Built on the core services' public
API (games.services); it hears of a game's end through
games.services.signals.game_ended."""
