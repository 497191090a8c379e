FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
# The locked runtime dependencies, each file checked against its hash (make lock).
COPY requirements.txt ./
RUN pip install --no-cache-dir --require-hashes -r requirements.txt
# The project runs from /app (bin/web, bin/worker, bin/beat): nothing more to install.
COPY . .
RUN useradd --create-home tianhei && chown -R tianhei /app
USER tianhei
EXPOSE 8000
CMD ["bin/web"]
