"""The benchmark's bare baseline views (manage.py bench_site), routed under
/bench/ by wecsite/urls.py only on the benchmark's own web processes
(WEC_BENCH_VIEWS, which needs this app installed)."""

from django.urls import path

from tools.site import views

urlpatterns = [
    path("insert/", views.bare_insert, name="bench_insert"),
    path("bytes/", views.bare_bytes, name="bench_bytes"),
]
