from django.urls import path, register_converter

from wecsite.inputs import PlainTextConverter

from .registry import game_urlpatterns
from .views import club, games, notifications, site, takeback

# Usernames under the text policy: a NUL reached the query as a DataError.
register_converter(PlainTextConverter, "plain")

urlpatterns = [
    path("", games.home, name="home"),
    path("healthz", site.healthz, name="healthz"),
    path("games/list/", games.game_list, name="game_list"),
    path("games/new/", games.new_game, name="new_game"),
    path("games/<int:game_id>/", games.game_detail, name="game_detail"),
    path("games/<int:game_id>/board/", games.game_board, name="game_board"),
    path("games/<int:game_id>/act/", games.game_act, name="game_act"),
    path("games/<int:game_id>/accept/", games.accept_seek, name="accept_seek"),
    path("games/<int:game_id>/cancel/", games.cancel_seek, name="cancel_seek"),
    path("games/<int:game_id>/resign/", games.resign, name="resign"),
    path("games/<int:game_id>/clocks/", games.game_clocks, name="game_clocks"),
    path("games/<int:game_id>/replay/", games.game_replay, name="game_replay"),
    path("games/<int:game_id>/challenge/", club.challenge_detail, name="challenge_detail"),
    path("games/<int:game_id>/challenge/answer/", club.challenge_answer, name="challenge_answer"),
    path("games/<int:game_id>/challenge/propose/", club.challenge_propose, name="challenge_propose"),
    path("games/<int:game_id>/draw/", club.draw, name="draw"),
    path("games/<int:game_id>/takeback/", takeback.take_back, name="take_back"),
    path("games/<int:game_id>/undo/", takeback.undo, name="undo_request"),
    path("games/<int:game_id>/chat/", club.chat, name="chat"),
    path("games/<int:game_id>/chat/post/", club.chat_post, name="chat_post"),
    path("games/<int:game_id>/watch/", club.watch, name="watch"),
    path("games/<int:game_id>/watch/board/", club.watch_board, name="watch_board"),
    path("games/<int:game_id>/watch/replay/", club.watch_replay, name="watch_replay"),
    path("archive/", club.archive, name="archive"),
    path("players/<plain:username>/", club.player_profile, name="player_profile"),
    path("leaderboard/", club.leaderboard, name="leaderboard"),
    path("games/<int:game_id>/export/", club.export_record, name="export_record"),
    path("games/<int:game_id>/start.json", club.export_scenario, name="export_scenario"),
    path("notifications/", notifications.notifications, name="notifications"),
    path("notifications/badge/", notifications.notification_badge, name="notification_badge"),
    path("notifications/read/", notifications.notifications_read, name="notifications_read"),
    # Each game's own pages (its package's `urls` module, when it has one).
    *game_urlpatterns(),
]
