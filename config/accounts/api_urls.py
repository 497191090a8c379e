from django.urls import path

from config.accounts.api import TokenView

urlpatterns = [path("auth/token/", TokenView.as_view(), name="api-token")]
