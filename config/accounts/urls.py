from django.urls import path

from config.accounts import views

urlpatterns = [
    path("login/", views.LoginView.as_view(redirect_authenticated_user=False), name="login"),
    path("login/code/", views.login_code, name="login-code"),
    path("two-factor/", views.two_factor, name="two-factor"),
]
