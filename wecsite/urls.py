from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]

# A plain page for server errors that works without the database (503 when the
# database is what failed).
handler500 = "games.views.server_error"
