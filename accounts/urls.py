from django.contrib.auth import views as auth_views
from django.urls import path

from . import forms, views, views_i18n

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("language/", views_i18n.set_language, name="set_language"),
    path("timezone/", views_i18n.detect_time_zone, name="detect_time_zone"),
    path("profile/", views.profile, name="profile"),
    path("vacation/", views.vacation, name="vacation"),
    path("login/", auth_views.LoginView.as_view(authentication_form=forms.LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("password_reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path("password_reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
]
