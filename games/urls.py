from django.urls import path

from . import views, views_club, views_takeback
from .registry import game_urlpatterns

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("games/list/", views.game_list, name="game_list"),
    path("games/new/", views.new_game, name="new_game"),
    path("games/<int:game_id>/", views.game_detail, name="game_detail"),
    path("games/<int:game_id>/board/", views.game_board, name="game_board"),
    path("games/<int:game_id>/act/", views.game_act, name="game_act"),
    path("games/<int:game_id>/accept/", views.accept_seek, name="accept_seek"),
    path("games/<int:game_id>/cancel/", views.cancel_seek, name="cancel_seek"),
    path("games/<int:game_id>/resign/", views.resign, name="resign"),
    path("games/<int:game_id>/clocks/", views.game_clocks, name="game_clocks"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/challenge/", views_club.challenge_detail, name="challenge_detail"),
    path("games/<int:game_id>/challenge/answer/", views_club.challenge_answer, name="challenge_answer"),
    path("games/<int:game_id>/challenge/propose/", views_club.challenge_propose, name="challenge_propose"),
    path("games/<int:game_id>/draw/", views_club.draw, name="draw"),
    path("games/<int:game_id>/takeback/", views_takeback.take_back, name="take_back"),
    path("games/<int:game_id>/undo/", views_takeback.undo, name="undo_request"),
    path("games/<int:game_id>/chat/", views_club.chat, name="chat"),
    path("games/<int:game_id>/chat/post/", views_club.chat_post, name="chat_post"),
    path("games/<int:game_id>/watch/", views_club.watch, name="watch"),
    path("games/<int:game_id>/watch/board/", views_club.watch_board, name="watch_board"),
    path("games/<int:game_id>/watch/replay/", views_club.watch_replay, name="watch_replay"),
    path("archive/", views_club.archive, name="archive"),
    path("players/<str:username>/", views_club.player_profile, name="player_profile"),
    path("leaderboard/", views_club.leaderboard, name="leaderboard"),
    path("games/<int:game_id>/export/", views_club.export_record, name="export_record"),
    path("games/<int:game_id>/start.json", views_club.export_scenario, name="export_scenario"),
    path("notifications/", views.notifications, name="notifications"),
    path("notifications/badge/", views.notification_badge, name="notification_badge"),
    path("notifications/read/", views.notifications_read, name="notifications_read"),
    # Each game's own pages (its package's `urls` module, when it has one).
    *game_urlpatterns(),
]
